import { loadConfig } from '../../src/config.ts';
import net, { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkTarget } from '../../src/modules/webhooks/delivery/url-guard.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import type { Actor } from '../helpers/harness.ts';
import {
  type Canary,
  captureLogger,
  createWebhookHarness,
  disableEndpoint,
  emitEvent,
  endpointRows,
  startCanary,
  type WebhookHarness,
} from '../helpers/webhooks.ts';
import { formUrl, REFUSED_URLS, resolverTable } from './ssrf-forms.ts';

/** The local address a form names (literal or test-resolver answer), if it names one: where a guard miss would connect. */
function localTargets(url: string, table: Record<string, string[]>): string[] {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return [];
  }
  const addresses = isIP(hostname) ? [hostname] : (table[hostname] ?? []);
  return addresses.filter((address) => {
    let parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    // Linux connects 0.0.0.0 and :: to the local host; the rest of 0.0.0.0/8 is unroutable.
    return parsed.range() === 'loopback' || ['0.0.0.0', '::'].includes(parsed.toString());
  });
}

function connectOnce(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The endpoint URL requirements (docs/api/webhooks.md, "Webhook URLs") with WEBHOOK_ALLOW_PRIVATE_TARGETS off: every form in
 * ssrf-forms.ts is refused when saved (create and update) and on every delivery attempt of a
 * row stored before the check existed. The forms carry the canary's port; the canary listens on
 * every local address and must see no connection from the whole file.
 */
describe('SSRF guard at save and delivery time, with a loopback canary', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let project: { id: number };
  let canary: Canary;
  const { log } = captureLogger();
  const table = resolverTable();

  beforeAll(async () => {
    canary = await startCanary();
    // The canary's port is allowed (WEBHOOK_ALLOWED_PORTS), so every refusal comes from the address.
    h = await createWebhookHarness({
      allowPrivate: false,
      config: { webhooks: { ...loadConfig({}).webhooks, allowedPorts: [canary.port] } },
    });
    Object.assign(h.resolver.table, table);
    admin = await h.actor();
    project = await h.project(admin, 'SSRF');
  });
  afterAll(async () => {
    await canary.close();
    await h.close();
  });

  async function createEndpoint(url: string): Promise<number> {
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url, project: project.id, events: ['task.updated'] },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }

  async function deliveryOf(endpointId: number) {
    const res = await h.request('GET', `/api/v1/webhooks/deliveries/?endpoint=${endpointId}`, { token: admin.token });
    return res.body.data[0];
  }

  it('control: the local forms really reach a listener on their port when connected to without the guard', async () => {
    const control = await startCanary();
    try {
      const targets = REFUSED_URLS.flatMap(({ url }) => localTargets(formUrl(url, control.port), table));
      for (const address of targets) expect(await connectOnce(address, control.port), address).toBe(true);
      console.info(
        `canary control: ${targets.length} local targets among ${REFUSED_URLS.length} forms reached a listener on ${control.host}`,
      );
      await vi.waitFor(() => expect(control.connections).toHaveLength(targets.length));
      expect(targets.length).toBeGreaterThan(50);
      // Both loopback families were reached: the canary covers 127.0.0.0/8 and ::1.
      const local = control.connections.map((c) => c.localAddress);
      expect(local).toContain(control.host === '::' ? '::ffff:127.0.0.1' : '127.0.0.1');
      if (control.host === '::') expect(local).toContain('::1');
    } finally {
      await control.close();
    }
  });

  it('at save time: every form is refused on create and on update with the VALIDATION_ERROR shape', async () => {
    const existing = await createEndpoint('https://93.184.216.34/hook');
    for (const { url, why } of REFUSED_URLS) {
      const stored = formUrl(url, canary.port);
      const guard = await checkTarget(stored, {
        allowPrivate: false,
        allowedPorts: [canary.port],
        resolve: h.resolver,
      }).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(guard, `${why}: ${stored}`).not.toBeNull();
      const expected = {
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: `The webhook URL is refused: ${guard}.`,
          details: { fields: { url: guard } },
        },
      };
      const created = await h.request('POST', '/api/v1/webhooks/endpoints/', {
        token: admin.token,
        body: { url: stored, project: project.id },
      });
      expect([created.status, created.body], `create, ${why}: ${stored}`).toEqual([400, expected]);
      const updated = await h.request('PATCH', `/api/v1/webhooks/endpoints/${existing}/`, {
        token: admin.token,
        body: { url: stored },
      });
      expect([updated.status, updated.body], `update, ${why}: ${stored}`).toEqual([400, expected]);
    }
    const endpoints = (await endpointRows(h)).map(({ url }) => ({ url }));
    expect(endpoints).toEqual([{ url: 'https://93.184.216.34/hook' }]);
    await disableEndpoint(h, existing);
  });

  it('DNS rebinding: a name public at save time and private at delivery time is refused without connecting', async () => {
    h.resolver.table['rebind.hooks.example'] = ['93.184.216.34'];
    const id = await createEndpoint(`https://rebind.hooks.example:${canary.port}/hook`);
    h.resolver.table['rebind.hooks.example'] = ['93.184.216.34', '127.0.0.1'];
    h.resolver.calls.length = 0;

    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log);

    expect(h.resolver.calls).toEqual(['rebind.hooks.example']);
    const delivery = await deliveryOf(id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
    expect(delivery.error).toBe(
      'refused before connecting: the URL host rebind.hooks.example resolves to 127.0.0.1, a loopback address',
    );
    await disableEndpoint(h, id);
  });

  it('at delivery time: every form stored on an endpoint (e.g. saved before a policy change) is refused on every attempt', async () => {
    const ids = new Map<number, string>();
    for (const { url, why } of REFUSED_URLS) {
      const id = await createEndpoint('https://93.184.216.34/hook');
      // The raw form, as a row written before the guard (or by another version) would hold it.
      const stored = formUrl(url, canary.port);
      await h.ctx.db.updateTable('webhook_endpoints').set({ url: stored }).where('id', '=', id).execute();
      ids.set(id, `${why}: ${stored}`);
    }
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    while ((await deliverDue(h.ctx, log, 100)) > 0);

    for (const [id, label] of ids) {
      const delivery = await deliveryOf(id);
      expect(delivery.attempts, label).toBe(1);
      expect(delivery.response_status, label).toBeNull();
      expect(delivery.error, label).toMatch(/^refused before connecting: the URL /);
    }
    expect(ids.size).toBe(REFUSED_URLS.length);
  });

  it('the canary on every local address received no connection from any of the tests above', () => {
    expect(canary.connections).toEqual([]);
  });
});
