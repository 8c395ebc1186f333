// A real SMTP server in process (smtp-server) on loopback: it accepts mail like a relay would and
// parses each message with mailparser, so tests check what a mail client would show.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

export interface FakeSmtp {
  /** smtp://127.0.0.1:<port> — use as SMTP_URL. */
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** Recipients refused at RCPT TO with "550 mailbox unavailable". */
  rejectRecipients: Set<string>;
  /** Recipients deferred at RCPT TO with "451 try again later" (a temporary failure). */
  deferRecipients: Set<string>;
  /** Resolves with the next mail received (or one already waiting beyond `seen`). */
  waitForMail(seen?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const rejectRecipients = new Set<string>();
  const deferRecipients = new Set<string>();
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejectRecipients.has(address.address.toLowerCase())) {
        const err = Object.assign(new Error('Requested action not taken: mailbox unavailable'), { responseCode: 550 });
        return callback(err);
      }
      if (deferRecipients.has(address.address.toLowerCase())) {
        return callback(Object.assign(new Error('Requested action aborted: try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw, { keepCidLinks: true })
          .then((parsed) => {
            mails.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            waiters.splice(0).forEach((w) => w());
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    rejectRecipients,
    deferRecipients,
    waitForMail(seen = mails.length, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length > seen) {
            clearTimeout(timer);
            resolve(mails[seen]);
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => reject(new Error('no mail arrived in time')), timeoutMs);
        if (!check()) waiters.push(() => void check());
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
