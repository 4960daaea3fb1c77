import { Dialog } from '../ui/index.ts';

const SHORTCUTS: Array<[string, string]> = [
  ['c', 'New task'],
  ['/', 'Search'],
  ['j / k', 'Next / previous item'],
  ['Enter', 'Open the focused task'],
  ['Ctrl / ⌘ K', 'Command palette: any action, project, person or task'],
  ['e', 'Edit the title of the open task'],
  ['a', 'Assign the open or focused task to me'],
  ['s', 'Change the status of the open or focused task'],
  ['l', 'Change the labels of the open or focused task'],
  ['x', 'Select the focused row of the list'],
  ['Space', 'Pick up or drop the focused card; arrows move it between columns, Escape cancels'],
  ['?', 'This list'],
];

export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([key, what]) => (
            <tr key={key}>
              <th scope="row">
                <kbd>{key}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
