// The benchmark's webhook receiver in a process of its own, so that verifying 10,000 signed HTTPS
// requests does not share a CPU with the service being measured. Prints its origin and CA as one
// JSON line; reads its secret from stdin; answers "count" with the number of verified requests.
import readline from 'node:readline';
import { startWebhookReceiver } from '../test/fakes/webhook-receiver.ts';

const receiver = await startWebhookReceiver();
process.stdout.write(JSON.stringify({ origin: receiver.origin, ca: receiver.ca }) + '\n');
for await (const line of readline.createInterface({ input: process.stdin })) {
  const [cmd, arg] = line.split(' ');
  if (cmd === 'secret') receiver.secret = arg;
  if (cmd === 'count')
    process.stdout.write(
      JSON.stringify({ received: receiver.received.length, verified: receiver.received.filter((r) => r.verified).length }) + '\n',
    );
}
await receiver.close();
