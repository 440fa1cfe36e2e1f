// A fake EHR acting as a CDS Hooks 2.0 client: its own ES384 key pair, its JWKS served over loopback (http, or
// https with a throwaway self-signed certificate for production-mode apps, which take https URLs only), and JWTs
// signed as CDS Hooks 2.0 "Trusting CDS Clients" asks (iss, aud = the service URL, iat, exp, jti). The same
// server serves a knowledge-base document from a checked-in fixture, and counts every request. Test-only.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';

export type FakeCdsEhr = {
  issuer: string;
  origin: string;
  jwksUrl: string;
  knowledgeBaseUrl: string;
  /** With https: the certificate file the app must trust (NODE_EXTRA_CA_CERTS). */
  caFile?: string;
  /** Every request the server received, by path. */
  requests: string[];
  jwksCalls(): number;
  knowledgeBaseCalls(): number;
  sign(
    claims: { aud: string; iat?: number; exp?: number; jti?: string; iss?: string },
    key?: CryptoKey,
  ): Promise<string>;
  /** A key the JWKS does not publish, for wrong-key cases. */
  otherKey: CryptoKey;
  close(): Promise<void>;
};

function selfSignedCertificate(): { key: string; cert: string; certFile: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-cds-ehr-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), certFile };
}

export async function startFakeCdsEhr(options: { issuer?: string; https?: boolean } = {}): Promise<FakeCdsEhr> {
  const issuer = options.issuer ?? 'https://ehr.example.test';
  const { privateKey, publicKey } = await generateKeyPair('ES384');
  const other = await generateKeyPair('ES384');
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(publicKey)), kid: 'ehr-key-1', alg: 'ES384', use: 'sig' }],
  });
  const rules = fs.readFileSync(path.resolve('test/fakes/fixtures/cds-knowledge-base.json'));
  const requests: string[] = [];
  const handler: http.RequestListener = (req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(p);
    const body = p === '/jwks.json' ? jwks : p === '/rules.json' ? rules : null;
    if (body === null) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  };
  const tls = options.https ? selfSignedCertificate() : undefined;
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const count = (p: string) => requests.filter((r) => r === p).length;
  return {
    issuer,
    origin,
    jwksUrl: `${origin}/jwks.json`,
    knowledgeBaseUrl: `${origin}/rules.json`,
    caFile: tls?.certFile,
    requests,
    jwksCalls: () => count('/jwks.json'),
    knowledgeBaseCalls: () => count('/rules.json'),
    otherKey: other.privateKey,
    async sign(claims, key = privateKey) {
      const now = Math.floor(Date.now() / 1000);
      const iat = claims.iat ?? now;
      return new SignJWT({})
        .setProtectedHeader({ alg: 'ES384', kid: 'ehr-key-1', typ: 'JWT' })
        .setIssuer(claims.iss ?? issuer)
        .setSubject('ehr-client')
        .setAudience(claims.aud)
        .setIssuedAt(iat)
        .setExpirationTime(claims.exp ?? iat + 300)
        .setJti(claims.jti ?? randomUUID())
        .sign(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
