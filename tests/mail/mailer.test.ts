import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createAppContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/database.ts';

/** Just enough SMTP to accept messages. */
function smtpSink() {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    socket.write('220 sink ESMTP\r\n');
    let buffer = '';
    let message: string | null = null;
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (message !== null) {
          if (line === '.') {
            messages.push(message);
            message = null;
            socket.write('250 queued\r\n');
          } else message += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'DATA') {
          message = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'EHLO' || verb === 'HELO' ? '250 sink\r\n' : '250 OK\r\n');
      }
    });
  });
  return { server, messages };
}

describe('e-mail through SMTP_URL (nodemailer)', () => {
  const sink = smtpSink();
  beforeAll(() => new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => sink.server.close(() => resolve())));

  const contextWith = (env: Record<string, string>) =>
    createAppContext({ config: loadConfig(env), clock: new ManualClock(), database: openDatabase('sqlite::memory:') });

  it('without SMTP_URL there is no mailer; with it, messages go out through the server', async () => {
    expect(contextWith({}).mailer).toBeNull();
    const port = (sink.server.address() as AddressInfo).port;
    const mailer = contextWith({ SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'ops@example.test' }).mailer!;
    await mailer.send({
      to: ['olga@example.test'],
      subject: 'Webhook endpoint 3 was disabled',
      text: 'Fix the receiver.',
    });
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toMatch(/^From: ops@example.test$/m);
    expect(sink.messages[0]).toMatch(/^To: olga@example.test$/m);
    expect(sink.messages[0]).toMatch(/^Subject: Webhook endpoint 3 was disabled$/m);
    expect(sink.messages[0]).toContain('Fix the receiver.');
  });
});
