/**
 * A position in live_events: the row last sent. Rows are read in (tx, id) order; tx is the
 * writing transaction on PostgreSQL and 0 on SQLite (see migration 0014).
 */
export interface LivePosition {
  tx: number;
  id: number;
}

const POSITION = /^(\d{1,15})-(\d{1,15})$/;

/** The SSE `id` of a position: opaque to clients, sent back as Last-Event-ID. */
export function formatPosition(position: LivePosition): string {
  return `${position.tx}-${position.id}`;
}

export function parsePosition(text: string): LivePosition | null {
  const match = POSITION.exec(text);
  return match ? { tx: Number(match[1]), id: Number(match[2]) } : null;
}
