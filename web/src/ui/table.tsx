import type { ReactNode } from 'react';

/** A table that scrolls sideways on a phone; `actions` adds a last column of buttons without a visible heading. */
export function Table({
  columns,
  actions,
  children,
  caption,
}: {
  columns: string[];
  actions?: boolean;
  children: ReactNode;
  caption?: string;
}) {
  // A table wider than a phone scrolls; keyboard users reach that scroll by focusing the named region.
  const region = caption ? { tabIndex: 0, role: 'region', 'aria-label': caption } : {};
  return (
    <div className="table-wrap" {...region}>
      <table>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A secret the service shows once (token, signing secret, invitation link). */
export function SecretNote({ children }: { children: ReactNode }) {
  return (
    <p className="secret" role="status">
      {children}
    </p>
  );
}
