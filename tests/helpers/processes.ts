import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** A `tasktracker` command running in its own process, with every line it wrote. */
export interface ServiceProcess {
  proc: ChildProcess;
  /** Lines of stdout (the JSON log) and stderr, as they came. */
  stdout: string[];
  stderr: string[];
  /** The first log line (parsed) that matches, waiting for it up to `timeoutMs`. */
  waitForLine(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Log lines parsed as JSON (a line that is not JSON fails the parse: the log must be structured). */
  lines(): Array<Record<string, unknown>>;
  alive(): boolean;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Runs `tasktracker <args>` with `env` added to this process' environment. */
export function startProcess(args: string[], env: NodeJS.ProcessEnv): ServiceProcess {
  const proc = spawn(process.execPath, [path.resolve('bin/tasktracker.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const listeners = new Set<() => void>();
  const collect = (into: string[]) => {
    let rest = '';
    return (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop()!;
      into.push(...parts.filter(Boolean));
      listeners.forEach((listener) => listener());
    };
  };
  proc.stdout!.on('data', collect(stdout));
  proc.stderr!.on('data', collect(stderr));
  proc.on('exit', () => listeners.forEach((listener) => listener()));
  const lines = () => stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  return {
    proc,
    stdout,
    stderr,
    lines,
    alive,
    waitForLine(match, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines().find(match);
          if (found) return done(() => resolve(found));
          if (!alive()) done(() => reject(new Error(`process exited: ${stderr.join('\n')}\n${stdout.join('\n')}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`no such log line within ${timeoutMs} ms:\n${stdout.join('\n')}`))),
          timeoutMs,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (!alive()) return proc.exitCode;
      const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
      proc.kill('SIGTERM');
      return exited;
    },
  };
}

/** Starts `serve` on a loopback port chosen by the system; resolves with its base URL once it listens. */
export async function startServe(
  env: NodeJS.ProcessEnv,
  args: string[] = ['serve'],
): Promise<ServiceProcess & { baseUrl: string }> {
  const service = startProcess(args, { HOST: '127.0.0.1', PORT: '0', ...env });
  const line = await service.waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('Server listening at '));
  const baseUrl = String(line.msg).slice('Server listening at '.length);
  return Object.assign(service, { baseUrl });
}
