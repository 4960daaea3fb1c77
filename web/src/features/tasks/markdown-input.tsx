import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Membership, Task } from '../../lib/api-types.ts';
import { get } from '../../lib/http.ts';
import { membersQuery, projectKeys } from '../projects/api.ts';
import { useProjects } from '../projects/use-project.ts';

/**
 * What is being typed at the caret: an `@handle` (an `@` not after a letter, digit or `_`,
 * as the server reads mentions) or a task key (`OPS-` and digits).
 */
const MENTION = /(?:^|[^A-Za-z0-9_])@([a-z0-9_-]{0,30})$/;
const KEY = /(?:^|[^A-Za-z0-9_-])([A-Z][A-Z0-9]*)-(\d*)$/;

type Fragment = { kind: 'mention'; text: string } | { kind: 'key'; project: string; digits: string };

function fragmentAt(before: string): Fragment | null {
  const mention = MENTION.exec(before);
  if (mention) return { kind: 'mention', text: mention[1]! };
  const key = KEY.exec(before);
  if (key) return { kind: 'key', project: key[1]!, digits: key[2]! };
  return null;
}

interface Choice {
  /** What replaces the fragment. */
  insert: string;
  label: string;
  detail: string;
}

/** The newest 200 tasks of a project: what key completion offers. */
const recentTasksQuery = (project: string) => ({
  queryKey: ['tasks', project, 'complete'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    get<Task[]>(`/api/v1/projects/${project}/tasks/?ordering=-created_at&limit=200`, signal),
  staleTime: 30_000,
});

const noMembers = { queryKey: projectKeys.members(''), queryFn: async (): Promise<Membership[]> => [] };

/**
 * A markdown textarea that completes `@` with the handles of the project's members and a
 * project key with its tasks: arrows choose, Enter or Tab takes, Escape closes.
 */
export function MarkdownInput({
  id,
  value,
  onChange,
  rows,
  projectKey,
}: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  rows: number;
  /** Whose members `@` offers. */
  projectKey: string | null;
}) {
  const listId = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [at, setAt] = useState(0);
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const pendingCaret = useRef<number | null>(null);
  const projects = useProjects();
  const project = projects.data?.find((p) => p.key === projectKey) ?? null;

  const before = caret === null ? '' : value.slice(0, caret);
  const fragment = caret === null || closedAt === before ? null : fragmentAt(before);
  const keyProject = fragment?.kind === 'key' ? (projects.data?.find((p) => p.key === fragment.project) ?? null) : null;
  const members = useQuery({
    ...(project ? membersQuery(project) : noMembers),
    enabled: project !== null && fragment?.kind === 'mention',
  });
  const tasks = useQuery({ ...recentTasksQuery(keyProject?.key ?? ''), enabled: keyProject !== null });

  let choices: Choice[] = [];
  if (fragment?.kind === 'mention') {
    const needle = fragment.text;
    choices = (members.data ?? [])
      .filter((m) => m.user_handle.startsWith(needle) || m.user_name.toLowerCase().startsWith(needle))
      .slice(0, 8)
      .map((m) => ({ insert: `@${m.user_handle}`, label: `@${m.user_handle}`, detail: m.user_name }));
  } else if (fragment?.kind === 'key' && keyProject) {
    const prefix = `${keyProject.key}-${fragment.digits}`;
    choices = (tasks.data ?? [])
      .filter((t) => t.key.startsWith(prefix))
      .slice(0, 8)
      .map((t) => ({ insert: t.key, label: t.key, detail: t.title }));
  }
  const open = choices.length > 0;
  const active = Math.min(at, choices.length - 1);

  useLayoutEffect(() => {
    if (pendingCaret.current === null || !area.current) return;
    area.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    setCaret(pendingCaret.current);
    pendingCaret.current = null;
  }, [value]);

  const take = (choice: Choice) => {
    if (caret === null || !fragment) return;
    const length =
      fragment.kind === 'mention' ? fragment.text.length + 1 : fragment.project.length + 1 + fragment.digits.length;
    const start = caret - length;
    const after = value.slice(caret);
    const insert = `${choice.insert}${after.startsWith(' ') ? '' : ' '}`;
    pendingCaret.current = start + insert.length;
    onChange(value.slice(0, start) + insert + after);
    setAt(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setAt((active + (event.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      take(choices[active]!);
    } else if (event.key === 'Escape') {
      // Closes the list, not the dialog or editor around the field.
      event.preventDefault();
      event.stopPropagation();
      setClosedAt(before);
    }
  };
  const track = () => setCaret(area.current?.selectionStart ?? null);

  return (
    <div className="complete">
      <textarea
        ref={area}
        id={id}
        rows={rows}
        value={value}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          setCaret(e.target.selectionStart);
          setAt(0);
        }}
        onKeyDown={onKeyDown}
        onKeyUp={(e) => {
          if (e.key.startsWith('Arrow') && !open) track();
        }}
        onClick={track}
        onBlur={() => setCaret(null)}
      />
      {open ? (
        <ul className="complete-list" role="listbox" id={listId} aria-label="Suggestions">
          {choices.map((choice, index) => (
            <li
              key={choice.insert}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              // Before the textarea loses focus, so the caret it completes at is still known.
              onMouseDown={(e) => {
                e.preventDefault();
                take(choice);
              }}
            >
              <strong>{choice.label}</strong> <span className="muted">{choice.detail}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
