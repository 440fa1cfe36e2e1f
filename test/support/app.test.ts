// startApp hands a test its own app, never another server that answers on the port: the app saying it listens
// decides, not the first 200 there (in CI a fake FHIR store of the other worker once took a port between
// freePort() and the app's listen, answered the health probe, and the test signed in against it).
import http from 'node:http';
import { expect, it } from 'vitest';
import { freePort, startApp } from './app';

it('refuses a port another server holds, even one that answers every path with 200, and never asks it', async () => {
  let requests = 0;
  const impostor = http.createServer((_request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => impostor.listen(port, '127.0.0.1', resolve));
  try {
    await expect(startApp({ port, database: 'pglite' })).rejects.toThrow(`port ${port} was taken`);
    expect(requests).toBe(0);
  } finally {
    await new Promise((resolve) => impostor.close(resolve));
  }
});
