// An HTTPS webhook receiver on loopback with a self-signed certificate (trust it through `ca`),
// verifying every request per the Standard Webhooks spec with the reference package, as a real
// receiver would. Answers can be scripted (a status, a redirect) to exercise failures.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed JSON when the signature verified, else undefined. */
  payload?: any;
  verified: boolean;
  verifyError?: string;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface FakeWebhookReceiver {
  /** https://127.0.0.1:<port> */
  origin: string;
  /** The PEM certificate the receiver serves: pass as the egress guard's `ca`. */
  ca: string;
  received: ReceivedWebhook[];
  /** The secret (whsec_…) to verify with; set it after the channel is created. */
  secret?: string;
  /** Answers the next requests with these, in order, then 204 again. */
  answerNext(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

let certCache: Promise<{ cert: string; key: string }> | undefined;

/** One certificate per test process: generating an RSA key takes a while. */
export function loopbackCertificate(): Promise<{ cert: string; key: string }> {
  certCache ??= selfsigned
    .generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    })
    .then((pems) => ({ cert: pems.cert, key: pems.private }));
  return certCache;
}

export async function startWebhookReceiver(): Promise<FakeWebhookReceiver> {
  const { cert, key } = await loopbackCertificate();
  const received: ReceivedWebhook[] = [];
  const answers: ScriptedAnswer[] = [];
  const receiver: FakeWebhookReceiver = {
    origin: '',
    ca: cert,
    received,
    answerNext: (...a) => void answers.push(...a),
    close: async () => {},
  };
  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const entry: ReceivedWebhook = { path: req.url ?? '/', headers, body, verified: false };
      try {
        if (!receiver.secret) throw new Error('the receiver has no secret');
        entry.payload = new Webhook(receiver.secret).verify(body, headers);
        entry.verified = true;
      } catch (err) {
        entry.verifyError = (err as Error).message;
      }
      received.push(entry);
      const scripted = answers.shift();
      if (scripted) {
        res.writeHead(scripted.status, scripted.headers ?? {});
        return res.end(scripted.body ?? '');
      }
      // A receiver rejects what it cannot verify, as the spec asks.
      res.writeHead(entry.verified ? 204 : 401);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
