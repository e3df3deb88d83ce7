// The publisher's webhook endpoint of the multi-host scenario, run on host c: every delivery it
// accepts (answered 200) is appended to the file named by its argument, one JSON line each, before
// the answer goes out.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const file = process.argv[2];
if (!file) throw new Error('usage: receiver.mjs <file>');

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const record = {
        delivery: req.headers['x-service-delivery'],
        event: body.event,
        // The entity the event is about: one event per acknowledged write.
        subject: body.data?.subscriptionId ?? body.data?.customerId ?? null,
        at: Date.now(),
      };
      appendFileSync(file, `${JSON.stringify(record)}\n`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    } catch {
      res.writeHead(400).end();
    }
  });
}).listen(8080, '0.0.0.0');
