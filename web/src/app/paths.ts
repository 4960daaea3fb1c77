/** The project a path is about: a board, list or settings screen, or one of its tasks. */
export function projectFromPath(path: string): string | null {
  const board = /^\/p\/([^/]+)/.exec(path);
  if (board) return board[1]!;
  const task = /^\/t\/([A-Z][A-Z0-9]*)-\d+/.exec(path);
  return task ? task[1]! : null;
}

/** Where "Settings" leads: the organization's people for its managers, one's profile for everyone else. */
export const settingsHome = (role: string) =>
  role === 'owner' || role === 'admin' ? '/settings/people' : '/settings/profile';
