import { createClient, isApiError, type WebhookEvent } from '@tasktracker/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, TestHarness } from '../helpers/harness.ts';
import { listeningHarness } from '../helpers/listening.ts';

/** Takes events from `stream` until `count` arrived. */
async function take(stream: AsyncGenerator<WebhookEvent>, count: number): Promise<WebhookEvent[]> {
  const taken: WebhookEvent[] = [];
  for await (const event of stream) {
    taken.push(event);
    if (taken.length === count) break;
  }
  return taken;
}

const keyOf = (event: WebhookEvent): string =>
  event.type === 'task.created' ? event.data.task.key : `(${event.type})`;

describe('tt.events.stream(): the event stream as a typed iterator', () => {
  let h: TestHarness & { baseUrl: string };
  let actor: Actor;

  beforeAll(async () => {
    h = await listeningHarness({
      live: { heartbeatMs: 15_000, pollMs: 100, maxStreamsPerPerson: 5, maxStreamsPerOrganization: 100 },
    });
    actor = await h.actor();
    await h.project(actor, 'SDK');
  });
  afterAll(() => h.close());

  const create = async (title: string) => {
    const res = await h.request('POST', '/api/v1/projects/SDK/tasks/', { token: actor.token, body: { title } });
    expect(res.status).toBe(201);
    return res.body.data.key as string;
  };

  /** The id of the last event so far: a stream that starts after it misses nothing that follows, whenever it connects. */
  const lastEventId = async () =>
    (await h.ctx.db.selectFrom('event_outbox').select('event_id').orderBy('id', 'desc').executeTakeFirstOrThrow())
      .event_id;

  it('yields typed events as they commit, and resumes after the last one yielded', async () => {
    const tt = createClient({ baseUrl: h.baseUrl, token: actor.token });
    const stream = tt.events.stream({ types: ['task.created'], project: 'SDK', after: await lastEventId() });
    const first = take(stream, 2);
    const keys = [await create('One'), await create('Two')];
    const events = await first;
    expect(events.map(keyOf)).toEqual(keys);
    expect(events[0]!.id).toMatch(/^evt_/);

    const missed = [await create('Three'), await create('Four')];
    const resumed = await take(tt.events.stream({ types: ['task.created'], after: events[1]!.id }), 2);
    expect(resumed.map(keyOf)).toEqual(missed);
  });

  it('reconnects by itself after a dropped connection, with Last-Event-ID, losing and repeating nothing', async () => {
    const sent: Array<string | null> = [];
    let drops = 1;
    // The first connection breaks off after its first event, as a network failure would.
    const dropping = async (request: Request) => {
      sent.push(request.headers.get('last-event-id'));
      const response = await fetch(request);
      if (!response.body || drops-- <= 0) return response;
      const reader = response.body.getReader();
      const encoder = new TextEncoder();
      const decoder = new TextDecoder();
      let pending = '';
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          pending += decoder.decode(value, { stream: true });
          const first = /event: task\.created\n[\s\S]*?\n\n/.exec(pending);
          if (first) {
            controller.enqueue(encoder.encode(pending.slice(0, first.index + first[0].length)));
            await reader.cancel();
            return controller.error(new TypeError('terminated'));
          }
          // Whole messages go on; a message still arriving waits for its end.
          const whole = pending.lastIndexOf('\n\n') + 2;
          if (whole > 1) {
            controller.enqueue(encoder.encode(pending.slice(0, whole)));
            pending = pending.slice(whole);
          }
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const tt = createClient({ baseUrl: h.baseUrl, token: actor.token, fetch: dropping });
    const after = await lastEventId();
    const stream = tt.events.stream({ types: ['task.created'], project: 'SDK', after, reconnectMs: 10 });
    const pending = take(stream, 3);
    const keys = [await create('Five'), await create('Six'), await create('Seven')];
    const events = await pending;
    expect(events.map(keyOf)).toEqual(keys);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(after);
    expect(sent[1]).toBe(events[0]!.id);
  });

  it('throws the ApiError of a refusal: 410 EVENTS_EXPIRED for a resume point it no longer holds', async () => {
    const tt = createClient({ baseUrl: h.baseUrl, token: actor.token });
    const error = await take(tt.events.stream({ after: `evt_${'0'.repeat(32)}` }), 1).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('EVENTS_EXPIRED');
  });

  it('ends when its signal aborts', async () => {
    const controller = new AbortController();
    const tt = createClient({ baseUrl: h.baseUrl, token: actor.token });
    const pending = take(tt.events.stream({ signal: controller.signal }), 10);
    controller.abort();
    expect(await pending).toEqual([]);
  });
});
