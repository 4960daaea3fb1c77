import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, root } from '../../scripts/docs/manual.ts';

const run = promisify(execFile);
const bin = path.join(root, 'bin/tasktracker.js');
const HOST = 'tracker.example.test';
const PAGE = 'docs/operating/reverse-proxy.md';

function installed(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const missing = ['nginx', 'caddy', 'openssl', 'curl'].filter((program) => !installed(program));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The page's fenced block of `lang`, as an operator would copy it. */
function example(lang: string): string {
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(read(PAGE));
  if (!block) throw new Error(`${PAGE} has no ${lang} example`);
  return block[1]!;
}

async function until(what: string, ready: () => Promise<boolean>, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * docs/operating/reverse-proxy.md's nginx and Caddy examples, in front of a real `tasktracker
 * serve` started as the page says (TRUST_PROXY, PUBLIC_BASE_URL). The examples are used as
 * written but for what a test cannot have: loopback ports instead of 443, 80 and 8080, and a
 * self-signed certificate for tracker.example.test instead of Let's Encrypt's. Skipped, saying
 * so, where nginx, Caddy or openssl are not installed.
 */
describe.skipIf(missing.length > 0)(`the reverse proxy examples${missing.length ? ` (need ${missing.join(', ')})` : ''}`, () => {
  const processes: ChildProcess[] = [];
  let dir: string;
  let servicePort: number;
  let serviceLog = '';
  let demo: { token: string; sign_in: { email: string; password: string } };
  const proxies: Record<'nginx' | 'caddy', number> = { nginx: 0, caddy: 0 };

  const curl = async (proxy: 'nginx' | 'caddy', args: string[]) => {
    const port = proxies[proxy];
    return run('curl', ['-sS', '--cacert', path.join(dir, 'cert.pem'), '--resolve', `${HOST}:${port}:127.0.0.1`, ...args], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
  };
  const base = (proxy: 'nginx' | 'caddy') => `https://${HOST}:${proxies[proxy]}`;
  const credentials = () => ({ email: demo.sign_in.email, password: demo.sign_in.password });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-proxy-'));
    fs.chmodSync(dir, 0o755); // nginx's workers (another user when started as root) write request bodies here
    await run('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${HOST}`,
      '-addext', `subjectAltName=DNS:${HOST}`, '-keyout', 'key.pem', '-out', 'cert.pem',
    ], { cwd: dir }); // prettier-ignore
    [servicePort, proxies.nginx, proxies.caddy] = [await freePort(), await freePort(), await freePort()];
    const redirectPort = await freePort();

    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TEST_)?DATABASE_URL$/.test(name))),
      DATABASE_URL: `sqlite:${path.join(dir, 'tasktracker.db')}`,
      ATTACHMENTS_DIR: path.join(dir, 'files'),
      TRUST_PROXY: 'true',
      PUBLIC_BASE_URL: `https://${HOST}:${proxies.nginx}`,
      HOST: '127.0.0.1',
      PORT: String(servicePort),
      LOG_LEVEL: 'info',
    };
    const service = spawn('node', [bin, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    processes.push(service);
    service.stdout!.on('data', (chunk) => (serviceLog += chunk));
    service.stderr!.on('data', (chunk) => (serviceLog += chunk));
    await until('serve', async () => (await fetch(`http://127.0.0.1:${servicePort}/healthz`)).ok);
    demo = JSON.parse((await run('node', [bin, 'demo'], { env })).stdout);

    const nginxSite = example('nginx')
      .replace('127.0.0.1:8080', `127.0.0.1:${servicePort}`)
      .replace(/listen 443 ssl http2;.*$/m, `listen 127.0.0.1:${proxies.nginx} ssl http2;`)
      .replace('listen 80;', `listen 127.0.0.1:${redirectPort};`)
      .replace(/\/etc\/letsencrypt\/live\/tracker\.example\.com\/fullchain\.pem/, path.join(dir, 'cert.pem'))
      .replace(/\/etc\/letsencrypt\/live\/tracker\.example\.com\/privkey\.pem/, path.join(dir, 'key.pem'))
      .replaceAll('tracker.example.com', HOST);
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log;\nevents {}\nhttp {\n` +
        `access_log off;\nclient_body_temp_path ${dir}/body;\nproxy_temp_path ${dir}/proxy;\n${nginxSite}\n}\n`,
    );
    processes.push(spawn('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' }));

    const caddySite = example('caddy')
      .replace('127.0.0.1:8080', `127.0.0.1:${servicePort}`)
      .replace(
        'tracker.example.com {',
        `{\n    admin off\n    auto_https off\n}\nhttps://${HOST}:${proxies.caddy} {\n    tls ${dir}/cert.pem ${dir}/key.pem`,
      );
    fs.writeFileSync(path.join(dir, 'Caddyfile'), caddySite);
    processes.push(
      spawn('caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
        env: { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'caddy'), XDG_CONFIG_HOME: path.join(dir, 'caddy') },
        stdio: 'ignore',
      }),
    );
    for (const proxy of ['nginx', 'caddy'] as const)
      await until(proxy, async () => (await curl(proxy, [`${base(proxy)}/healthz`])).stdout.includes('"ok"'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      processes
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          return exited;
        }),
    );
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const proxy of ['nginx', 'caddy'] as const) {
    it(`${proxy}: HTTPS sign-in sets the __Host- cookie, and a forged X-Forwarded-For is not believed`, async () => {
      const { stdout } = await curl(proxy, [
        '-D', '-', '-o', '/dev/null',
        '-H', `Origin: ${base(proxy)}`, '-H', 'Content-Type: application/json', '-H', 'X-Forwarded-For: 203.0.113.66',
        '-d', JSON.stringify(credentials()), `${base(proxy)}/api/console/sign-in/`,
      ]); // prettier-ignore
      expect(stdout).toMatch(/^HTTP\/\S+ 200/);
      expect(stdout).toMatch(/^set-cookie: __Host-tt_session=[^;]+;.*; Secure/im);
      expect(serviceLog).not.toContain('203.0.113.66');
    });

    it(`${proxy}: a 20 MB upload goes through`, async () => {
      fs.writeFileSync(path.join(dir, 'upload.bin'), Buffer.alloc(20_000_000, 7));
      const { stdout } = await curl(proxy, [
        '-o', '/dev/null', '-w', '%{http_code}', '-H', `Authorization: Bearer ${demo.token}`,
        '-F', 'file=@upload.bin', `${base(proxy)}/api/v1/tasks/DEMO-1/attachments/`,
      ]); // prettier-ignore
      expect(stdout).toBe('201');
    });

    it(`${proxy}: a change reaches an open live stream at once`, async () => {
      const signIn = await curl(proxy, [
        '-D', '-', '-o', '/dev/null', '-H', `Origin: ${base(proxy)}`, '-H', 'Content-Type: application/json',
        '-d', JSON.stringify(credentials()), `${base(proxy)}/api/console/sign-in/`,
      ]); // prettier-ignore
      const cookie = /__Host-tt_session=[^;\s]+/.exec(signIn.stdout)![0];
      const port = proxies[proxy];
      const stream = spawn('curl', [
        '-sN', '--cacert', path.join(dir, 'cert.pem'), '--resolve', `${HOST}:${port}:127.0.0.1`,
        '-H', `Cookie: ${cookie}`, `${base(proxy)}/api/console/live/`,
      ]); // prettier-ignore
      processes.push(stream);
      let received = '';
      stream.stdout!.on('data', (chunk) => (received += chunk));
      try {
        await until('the live stream', async () => received.includes('event: ready'), 15_000);
        const title = `Through ${proxy}`;
        const created = JSON.parse(
          (
            await curl(proxy, [
              '-H', `Authorization: Bearer ${demo.token}`, '-H', 'Content-Type: application/json',
              '-d', JSON.stringify({ title }), `${base(proxy)}/api/v1/projects/DEMO/tasks/`,
            ])
          ).stdout,
        ); // prettier-ignore
        // Well inside the 15 s keep-alive: a buffering proxy would hold the event until then.
        await until('the change event', async () => received.includes(`"key":"${created.data.key}"`), 5_000);
      } finally {
        stream.kill('SIGTERM');
      }
    });
  }
});
