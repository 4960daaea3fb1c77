/**
 * Comfortable or compact: how much room rows and cards take. Kept in this browser as an
 * attribute on <html> that the spacing in styles.css follows, like the theme.
 */
const KEY = 'tt:density';
export type Density = 'comfortable' | 'compact';

export const currentDensity = (): Density => (localStorage.getItem(KEY) === 'compact' ? 'compact' : 'comfortable');

export function applyDensity(): void {
  if (currentDensity() === 'compact') document.documentElement.dataset.density = 'compact';
  else delete document.documentElement.dataset.density;
}

export function setDensity(density: Density): void {
  if (density === 'compact') localStorage.setItem(KEY, density);
  else localStorage.removeItem(KEY);
  applyDensity();
  window.dispatchEvent(new Event('tt:density'));
}
