import { Writable } from 'node:stream';

export interface CapturedLog {
  /** Every line so far, parsed. */
  readonly lines: Array<Record<string, unknown>>;
  /** Every line so far, as written. */
  raw: string[];
  stream: Writable;
  /** The first line that matches, waiting for it up to `timeoutMs`. */
  waitFor(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** A log destination (for createLogger) whose lines the test reads. */
export function capturedLog(): CapturedLog {
  const raw: string[] = [];
  const listeners = new Set<() => void>();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      listeners.forEach((listener) => listener());
      done();
    },
  });
  const parsed = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    raw,
    stream,
    get lines() {
      return parsed();
    },
    waitFor(match, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = parsed().find(match);
          if (!found) return;
          finish();
          resolve(found);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no such log line within ${timeoutMs} ms:\n${raw.join('\n')}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
}
