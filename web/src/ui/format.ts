export const categoryLabel = { todo: 'To do', in_progress: 'In progress', done: 'Done' } as const;

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso.length === 10 ? `${iso}T00:00:00` : iso).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
