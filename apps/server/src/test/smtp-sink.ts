import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { scaled } from './slow-machine.js';

/** A real SMTP server on a local port that keeps what it receives (mail tests). */
export interface SmtpSink {
  port: number;
  messages: ParsedMail[];
  /** The first message (received or to come) that matches, within the time given. */
  waitFor(match: (message: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** Starts the sink on the given port (0: a free one), keeping messages in `into` if given. */
export async function startSmtpSink(port = 0, into: ParsedMail[] = []): Promise<SmtpSink> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          into.push(parsed);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    port: boundPort,
    messages: into,
    async waitFor(match, timeoutMs = scaled(10_000)) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = into.find(match);
        if (found) {
          return found;
        }
        if (Date.now() > deadline) {
          throw new Error(
            `no matching mail within ${timeoutMs} ms (got: ${into.map((m) => m.subject).join(', ')})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link in a message's text that starts with this origin and path. */
export function linkIn(message: ParsedMail, prefix: string): string {
  const text = message.text ?? '';
  const index = text.indexOf(prefix);
  if (index < 0) {
    throw new Error(`no link ${prefix} in: ${text}`);
  }
  return /^\S+/.exec(text.slice(index))?.[0] ?? '';
}
