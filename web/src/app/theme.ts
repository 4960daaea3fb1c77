/**
 * Light or dark: the system's setting unless the person chose one (kept in this browser). The
 * choice is an attribute on <html> that the colour tokens in styles.css follow.
 */
const KEY = 'tt:theme';
export type Theme = 'light' | 'dark';

const system = (): Theme => (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');

export function chosenTheme(): Theme | null {
  const stored = localStorage.getItem(KEY);
  return stored === 'light' || stored === 'dark' ? stored : null;
}

/** The theme showing now. */
export const currentTheme = (): Theme => chosenTheme() ?? system();

export function applyTheme(): void {
  const chosen = chosenTheme();
  if (chosen) document.documentElement.dataset.theme = chosen;
  else delete document.documentElement.dataset.theme;
}

/** Switches to the other theme and keeps the choice; back to the system's when that is what it follows. */
export function toggleTheme(): void {
  const next: Theme = currentTheme() === 'dark' ? 'light' : 'dark';
  if (next === system()) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, next);
  applyTheme();
  window.dispatchEvent(new Event('tt:theme'));
}
