import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processUrl } from '../helpers/database.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { HOST, ORIGIN, PASSWORD } from '../helpers/people.ts';

/** First run: `serve` on a database without an organization prints one setup link, usable once. */
describe('serve prints the setup link on first run', () => {
  let h: TestHarness;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await h.close();
  });

  it(
    'logs one setup URL with the port it really listens on; the link creates the organization once',
    { timeout: 120_000 },
    async () => {
      child = spawn('node', [path.resolve('bin/tasktracker.js'), 'serve'], {
        env: {
          ...process.env,
          DATABASE_URL: processUrl(h.ctx.database),
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const line = await new Promise<{ setup_url: string; msg: string }>((resolve, reject) => {
        let buffered = '';
        child!.stdout!.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          for (const text of buffered.split('\n')) {
            if (text.includes('setup_url')) resolve(JSON.parse(text));
          }
        });
        child!.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const url = new URL(line.setup_url);
      expect(url.hostname).toBe('127.0.0.1');
      expect(Number(url.port)).toBeGreaterThan(0);
      expect(url.pathname).toBe('/setup');
      expect(url.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);
      expect(line.msg).toContain(line.setup_url);
      const token = url.hash.slice('#token='.length);

      // The service it started answers for real on that port.
      expect((await fetch(new URL('/api/console/setup/', url)).then((r) => r.json())).data).toEqual({ needed: true });

      const body = {
        token,
        organization: { name: 'First', slug: 'first' },
        name: 'Fay',
        email: 'fay@first.test',
        password: PASSWORD,
      };
      const post = () => h.request('POST', '/api/console/setup/', { body, headers: { host: HOST, origin: ORIGIN } });
      expect((await post()).status).toBe(201);
      expect((await post()).status).toBe(400);
      // Only the hash is stored.
      const stored = await h.ctx.db.selectFrom('setup_tokens').select('token_hash').execute();
      expect(stored.every((row) => row.token_hash !== token && /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
    },
  );
});
