// startApp hands a test its own app, never another server that answers on its port. In CI a sign-in once got 404
// from /api/auth/csrf: most likely the other worker's fake FHIR store was given the port freePort() had just
// released (it answers /api/health as a search, 200, and that path as a read, 404). Now freePort() chooses below
// the kernel's ephemeral range (where listen(0) never lands) and the probe counts only once the app listens.
import fs from 'node:fs';
import http from 'node:http';
import { expect, it } from 'vitest';
import { freePort, startApp } from './app';

it('chooses ports below the range the kernel hands to listen(0) and outgoing connections', async () => {
  const [floor] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) expect(port).toBeLessThan(floor!);
});

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
