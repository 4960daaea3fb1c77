/** "Ada Lovelace" → "AL", "grace" → "GR". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  const letters = words.length > 1 ? words[0]![0]! + words.at(-1)![0]! : words[0]!.slice(0, 2);
  return letters.toUpperCase();
}

/** A hue from the name, so a person keeps one colour everywhere. */
function hueOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

/** A person's initials in a circle of their colour; an empty dashed circle for nobody. */
export function Avatar({ name, size = 'small' }: { name: string | null; size?: 'small' | 'large' }) {
  if (!name)
    return (
      <span className={`avatar avatar-${size} avatar-none`} role="img" aria-label="Unassigned" title="Unassigned" />
    );
  return (
    <span
      className={`avatar avatar-${size}`}
      role="img"
      aria-label={name}
      title={name}
      style={{ backgroundColor: `hsl(${hueOf(name)} 45% 34%)` }}
    >
      {initials(name)}
    </span>
  );
}
