// The delivery headers verify with SPEC's rule (the project's own inbound verifier, per secret) and with the
// Standard Webhooks reference verifier; during a rotation each of both secrets verifies alone.
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { verifySignature } from '../webhooks/verify-signature';
import { deliveryHeaders } from './sign-delivery';
import { newSigningSecret, signingKey } from './signing-secret';

const body = JSON.stringify({ id: 'evt_1', type: 'claim.paid', createdAt: '2026-11-28T12:00:00.000Z', data: {} });
const now = Math.floor(Date.now() / 1000);
const sign = (secrets: string[]) =>
  deliveryHeaders({
    body,
    secrets,
    eventId: 'evt_1',
    deliveryId: 'dlv_1',
    correlationId: 'corr-12345678',
    timestamp: now,
  });

describe('deliveryHeaders', () => {
  it('signs the raw body under the endpoint secret for both verifiers', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = sign([secret]);
    expect(headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature(Buffer.from(body), headers['x-svc-signature']!, [signingKey(secret)])).toBe(true);
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ id: 'evt_1' });
    expect(headers).toMatchObject({
      'x-svc-delivery': 'dlv_1',
      'webhook-id': 'evt_1',
      'x-correlation-id': 'corr-12345678',
    });
  });

  it('refuses another secret and a changed body', () => {
    const headers = sign([newSigningSecret()]);
    const other = newSigningSecret();
    expect(verifySignature(Buffer.from(body), headers['x-svc-signature']!, [signingKey(other)])).toBe(false);
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(`${body} `, headers)).toThrow();
  });

  it('sends a signature under each live secret during a rotation', () => {
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = sign([next, previous]);
    const hex = headers['x-svc-signature']!.split(',');
    expect(hex).toHaveLength(2);
    for (const secret of [next, previous]) {
      expect(hex.some((h) => verifySignature(Buffer.from(body), h, [signingKey(secret)]))).toBe(true);
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'claim.paid' });
    }
  });
});
