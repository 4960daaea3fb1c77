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

export function useShortcuts(actions: { search: () => void; help: () => void; create: () => void }) {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
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
