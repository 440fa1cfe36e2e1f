// A loopback HTTP server whose answer per path a test scripts (status, headers, body, a body that never ends,
// no answer at all), counting TCP connections and requests, so a refused call can be shown to have made none.
// For the egress client's tests. Test-only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: string | Buffer }
  | { hang: true }
  /** Sends the headers and `body`, then stalls with the response open. */
  | { stallAfter: string; headers?: Record<string, string> }
  /** Streams `bytes` bytes in chunks without a content-length. */
  | { streamBytes: number };

export type ScriptedServer = {
  origin: string;
  port: number;
  connections: number;
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }>;
  answer(path: string, answer: ScriptedAnswer): void;
  close(): Promise<void>;
};

export async function startScriptedServer(): Promise<ScriptedServer> {
  const answers = new Map<string, ScriptedAnswer>();
  const open = new Set<http.ServerResponse>();
  const state = { connections: 0, requests: [] as ScriptedServer['requests'] };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    state.requests.push({
      method: req.method ?? '',
      path,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const answer = answers.get(path) ?? { status: 404, body: 'no script' };
    if ('hang' in answer) return void open.add(res);
    if ('stallAfter' in answer) {
      open.add(res);
      res.writeHead(200, { 'content-type': 'application/json', ...answer.headers });
      res.write(answer.stallAfter);
      return;
    }
    if ('streamBytes' in answer) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      for (let sent = 0; sent < answer.streamBytes && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done).off('close', done);
              resolve();
            };
            res.once('drain', done).once('close', done);
          });
        }
      }
      return void res.end();
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    answer: (path, answer) => void answers.set(path, answer),
    close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  } as ScriptedServer;
}
