import { useEffect, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { applyNotificationChange } from '../features/notifications/live.ts';
import { applyProjectChange } from '../features/projects/live.ts';
import { applyTaskChange } from '../features/tasks/live.ts';
import type { LiveChange } from '../lib/live-change.ts';
import { sessionKeys } from '../features/session/api.ts';

/** Waits before reopening a stream the server refused: 1 s, 2 s, 4 s … at most 30 s, with jitter. */
export function backoff(attempt: number): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/** Hands one change to the areas whose cached resources it touches. */
function apply(client: QueryClient, change: LiveChange): void {
  applyTaskChange(client, change);
  applyProjectChange(client, change);
  applyNotificationChange(client, change);
}

export type LiveState = 'connecting' | 'live' | 'retrying';

/**
 * Follows the live stream and refreshes what changed. While a connection drops, EventSource
 * reconnects by itself with Last-Event-ID, and the server replays whatever happened meanwhile.
 * A refusal (429 too many streams, 400 an id the server does not know, 5xx) closes an
 * EventSource for good: then a new one is opened after a growing pause, and since a new
 * stream starts at the present, everything shown is read again once it is ready, so nothing
 * written in between is missed.
 */
export function useLiveUpdates(): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;
    const connect = (gap: boolean) => {
      const current = new EventSource('/api/console/live/');
      source = current;
      let opened = false;
      current.addEventListener('ready', () => {
        attempt = 0;
        setState('live');
        // The browser's own reconnects resume with Last-Event-ID; a new stream starts at the
        // present, so after a refusal everything shown is read again.
        if (gap && !opened) void client.invalidateQueries();
        opened = true;
      });
      current.addEventListener('change', (event) => {
        try {
          apply(client, JSON.parse((event as MessageEvent<string>).data) as LiveChange);
        } catch {
          // A malformed event names nothing to refresh.
        }
      });
      current.addEventListener('error', () => {
        if (stopped || current.readyState !== EventSource.CLOSED) return; // the browser reconnects by itself
        current.close();
        setState('retrying');
        // A 401 means the session ended: reading it again sends the person to sign in.
        void client.invalidateQueries({ queryKey: sessionKeys.current });
        timer = setTimeout(() => connect(true), backoff(attempt++));
      });
    };
    // Back online: try at once instead of waiting out the pause.
    const online = () => {
      if (source?.readyState !== EventSource.CLOSED || stopped) return;
      clearTimeout(timer);
      connect(true);
    };
    window.addEventListener('online', online);
    connect(false);
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
      window.removeEventListener('online', online);
    };
  }, [client]);
  return state;
}

/** Says so while live updates are interrupted; the screens still work, only without pushes. */
export function LiveBanner({ state }: { state: LiveState }) {
  if (state !== 'retrying') return null;
  return (
    <div className="offline" role="status">
      Live updates are interrupted; reconnecting. Reload a screen to see the latest.
    </div>
  );
}
