// A customer's webhook endpoint, for the events-out tests: a local HTTP server that keeps every request (raw body,
// headers, arrival order) and answers as the test says (a status, or a hang past the dispatcher's 10 s timeout).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedDelivery = { headers: http.IncomingHttpHeaders; body: string; envelope: any; status: number };
/** What to answer a request: a status, or 'hang' (never answer until the receiver closes). */
export type Answer = number | 'hang';

export type WebhookReceiver = {
  url: string;
  received: ReceivedDelivery[];
  /** Deliveries answered 2xx, in arrival order. */
  delivered(): ReceivedDelivery[];
  /** Decides each request's answer (default 200). */
  answer: (request: { envelope: any; count: number }) => Answer;
  close(): Promise<void>;
};

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    delivered: () => receiver.received.filter((r) => r.status >= 200 && r.status < 300),
    answer: () => 200,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      let envelope: any = null;
      try {
        envelope = JSON.parse(body);
      } catch {
        /* kept as text */
      }
      const count = receiver.received.filter((r) => r.envelope?.id === envelope?.id).length + 1;
      const answer = receiver.answer({ envelope, count });
      receiver.received.push({ headers: req.headers, body, envelope, status: answer === 'hang' ? 0 : answer });
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? `failed with ${answer}` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
