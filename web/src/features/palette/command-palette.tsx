import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { projectFromPath } from '../../app/paths.ts';
import { usePeople } from '../people/use-people.ts';
import { useProjects } from '../projects/use-project.ts';
import { searchQuery } from '../search/api.ts';
import { Avatar, Dialog } from '../../ui/index.ts';

interface Command {
  id: string;
  group: 'Actions' | 'Projects' | 'People' | 'Tasks';
  label: string;
  hint?: string;
  lead?: ReactNode;
  run: () => void;
}

/** What the palette can do besides finding things: the app's actions, by name. */
function useActions(project: string | null, close: () => void, extra: PaletteActions): Command[] {
  const [, navigate] = useLocation();
  const go = (path: string) => () => {
    close();
    navigate(path);
  };
  const run = (action: () => void) => () => {
    close();
    action();
  };
  const actions: Command[] = [
    { id: 'new-task', group: 'Actions', label: 'New task', hint: 'c', run: run(extra.newTask) },
    { id: 'search', group: 'Actions', label: 'Search tasks', hint: '/', run: run(extra.search) },
    { id: 'shortcuts', group: 'Actions', label: 'Keyboard shortcuts', hint: '?', run: run(extra.help) },
    { id: 'theme', group: 'Actions', label: 'Switch between light and dark', run: run(extra.toggleTheme) },
    { id: 'my-work', group: 'Actions', label: 'Go to my work', run: go('/my-work') },
    { id: 'standups', group: 'Actions', label: 'Go to standups', run: go('/standups') },
    { id: 'projects', group: 'Actions', label: 'Go to projects', run: go('/projects') },
    { id: 'profile', group: 'Actions', label: 'Go to my profile', run: go('/settings/profile') },
    { id: 'people', group: 'Actions', label: 'Go to people settings', run: go('/settings/people') },
    { id: 'tokens', group: 'Actions', label: 'Go to API tokens', run: go('/settings/tokens') },
    { id: 'webhooks', group: 'Actions', label: 'Go to webhooks', run: go('/settings/webhooks') },
    { id: 'appearance', group: 'Actions', label: 'Density and theme', run: go('/settings/appearance') },
    { id: 'sign-out', group: 'Actions', label: 'Sign out', run: run(extra.signOut) },
  ];
  if (project)
    actions.splice(
      2,
      0,
      { id: 'board', group: 'Actions', label: `Go to the ${project} board`, run: go(`/p/${project}/board`) },
      { id: 'list', group: 'Actions', label: `Go to the ${project} list`, run: go(`/p/${project}/list`) },
      {
        id: 'project-settings',
        group: 'Actions',
        label: `Go to the ${project} settings`,
        run: go(`/p/${project}/settings`),
      },
    );
  return actions;
}

export interface PaletteActions {
  newTask: () => void;
  search: () => void;
  help: () => void;
  toggleTheme: () => void;
  signOut: () => void;
}

/**
 * Ctrl/⌘-K: one field that finds any action, project, person or task. Arrows move, Enter runs,
 * Escape closes. A person opens the current project's board filtered to their tasks.
 */
export function CommandPalette({
  open,
  onClose,
  actions: extra,
}: {
  open: boolean;
  onClose: () => void;
  actions: PaletteActions;
}) {
  const [location, navigate] = useLocation();
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const [at, setAt] = useState(0);
  const projects = useProjects();
  const people = usePeople();
  const current = projectFromPath(location) ?? projects.data?.[0]?.key ?? null;
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text.trim()), 120);
    return () => clearTimeout(timer);
  }, [text]);
  const close = () => {
    setText('');
    setAt(0);
    onClose();
  };
  const tasks = useQuery({ ...searchQuery(debounced), enabled: open && debounced.length > 0 });
  const actions = useActions(projectFromPath(location), close, extra);
  const needle = text.trim().toLowerCase();
  const matches = (label: string) => !needle || label.toLowerCase().includes(needle);

  const commands: Command[] = [
    ...actions.filter((a) => matches(a.label)),
    ...(projects.data ?? [])
      .filter((p) => matches(`${p.name} ${p.key}`))
      .map<Command>((p) => ({
        id: `project-${p.key}`,
        group: 'Projects',
        label: `${p.name} (${p.key})`,
        run: () => {
          close();
          navigate(`/p/${p.key}/board`);
        },
      })),
    ...(needle
      ? (people.data ?? [])
          .filter((p) => p.active && p.kind === 'human' && matches(p.name))
          .map<Command>((p) => ({
            id: `person-${p.id}`,
            group: 'People',
            label: p.name,
            hint: current ? `their tasks in ${current}` : undefined,
            lead: <Avatar name={p.name} />,
            run: () => {
              close();
              navigate(current ? `/p/${current}/board?assignee=${p.id}` : '/projects');
            },
          }))
      : []),
    ...(tasks.data ?? []).map<Command>((t) => ({
      id: `task-${t.key}`,
      group: 'Tasks',
      label: `${t.key} ${t.title}`,
      hint: t.status,
      run: () => {
        close();
        navigate(`/t/${t.key}`);
      },
    })),
  ];

  const active = Math.min(at, Math.max(0, commands.length - 1));
  return (
    <Dialog open={open} onClose={close} title="Command palette" wide>
      <div className="palette">
        <input
          type="text"
          role="combobox"
          aria-label="Find an action, project, person or task"
          aria-expanded={commands.length > 0}
          aria-controls="palette-results"
          aria-activedescendant={commands[active] ? `palette-${commands[active].id}` : undefined}
          placeholder="Type an action, a project, a person or words from a task"
          data-autofocus=""
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setAt(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setAt(Math.min(commands.length - 1, active + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setAt(Math.max(0, active - 1));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              commands[active]?.run();
            }
          }}
        />
        <ul id="palette-results" role="listbox" aria-label="Results" className="results palette-results">
          {commands.map((c, i) => (
            <li
              key={c.id}
              id={`palette-${c.id}`}
              role="option"
              aria-selected={i === active}
              onClick={() => c.run()}
              onMouseEnter={() => setAt(i)}
            >
              {i === 0 || commands[i - 1]!.group !== c.group ? (
                <span className="palette-group" aria-hidden="true">
                  {c.group}
                </span>
              ) : null}
              <span className="palette-item">
                {c.lead}
                <span>{c.label}</span>
                {c.hint ? <span className="muted palette-hint">{c.hint}</span> : null}
              </span>
            </li>
          ))}
        </ul>
        {needle && !commands.length && !tasks.isFetching ? <p className="muted">Nothing matches.</p> : null}
      </div>
    </Dialog>
  );
}
