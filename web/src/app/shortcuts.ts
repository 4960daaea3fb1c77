import { useEffect, useRef } from 'react';

/** True when a key press belongs to a text field, not to the app's shortcuts. */
function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    Boolean(target.closest('dialog'))
  );
}

/** The task a key press is about: the one open (panel or page), else the focused card or list row. */
export function targetTask(): string | null {
  const open = document.querySelector<HTMLElement>('[data-open-task]');
  if (open) return open.dataset.openTask ?? null;
  const focused = document.activeElement as HTMLElement | null;
  return (
    focused?.closest<HTMLElement>('[data-task]')?.dataset.task ??
    focused?.closest<HTMLElement>('tr[data-row-task]')?.dataset.rowTask ??
    null
  );
}

export interface ShortcutActions {
  search: () => void;
  help: () => void;
  create: () => void;
  palette: () => void;
  /** `a`, `s`, `l` on the target task: assign to me, its status, its labels. */
  onTask: (key: string, what: 'assign' | 'status' | 'labels') => void;
}

export function useShortcuts(actions: ShortcutActions) {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Ctrl/⌘-K opens the palette from anywhere, a text field included.
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        ref.current.palette();
        return;
      }
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event)) return;
      if (document.querySelector('[aria-roledescription="card"][aria-pressed="true"]')) return;
      const nav = () => [...document.querySelectorAll<HTMLElement>('main [data-nav-item]')];
      switch (event.key) {
        case '/':
          event.preventDefault();
          ref.current.search();
          break;
        case '?':
          event.preventDefault();
          ref.current.help();
          break;
        case 'c':
          event.preventDefault();
          ref.current.create();
          break;
        case 'e':
          window.dispatchEvent(new Event('tt:edit'));
          break;
        case 'a':
        case 's':
        case 'l': {
          const key = targetTask();
          if (!key) return;
          event.preventDefault();
          ref.current.onTask(key, event.key === 'a' ? 'assign' : event.key === 's' ? 'status' : 'labels');
          break;
        }
        case 'x': {
          const row = (document.activeElement as HTMLElement | null)?.closest('tr');
          const box = row?.querySelector<HTMLInputElement>('input[type="checkbox"]');
          if (!box) return;
          event.preventDefault();
          box.click();
          break;
        }
        case 'j':
        case 'k': {
          const items = nav();
          if (!items.length) return;
          event.preventDefault();
          const at = items.indexOf(document.activeElement as HTMLElement);
          const next = at < 0 ? 0 : Math.min(items.length - 1, Math.max(0, at + (event.key === 'j' ? 1 : -1)));
          items[next]!.focus();
          items[next]!.scrollIntoView({ block: 'nearest', inline: 'nearest' });
          break;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
