/** One `change` event of the live stream: what changed, not how (docs/api/live-updates.md). */
export interface LiveChange {
  kind: 'task' | 'comment' | 'project';
  project: string;
  key: string | null;
  action: string;
  /** The task's version after the change; null for a deletion and for events that are not task writes. */
  version: number | null;
}
