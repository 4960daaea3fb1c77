/** One `change` event of the live stream: what changed, not how (docs/api/live-updates.md). */
export interface ResourceChange {
  kind: 'task' | 'comment' | 'project';
  project: string;
  key: string | null;
  action: string;
  /** The task's version after the change; null for a deletion and for events that are not task writes. */
  version: number | null;
}

export type LiveChange =
  | ResourceChange
  | {
      /** One of the reader's own notifications was created or read; only its recipient's streams get it. */
      kind: 'notification';
      project: string | null;
      key: string | null;
      action: string;
      version: null;
    };
