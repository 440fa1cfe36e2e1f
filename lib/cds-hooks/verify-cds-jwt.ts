// Who is calling a CDS service: the EHR's JWT bearer (CDS Hooks 2.0 "Trusting CDS Clients"), checked against the
// operator's CDS_CLIENTS binding (DECISIONS "CDS Hooks"). Owns the signature, aud, exp, iat and single-use jti
// checks and the JWKS cache; it reads no patient data, so a refused call has read none.
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import type { Clock } from '../clock';
import type { CdsClient, Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import { egressError, KIB, loggableUrl, type Egress } from '../outbound/egress';
import { sandboxCdsClients } from '../sandbox-ehr/sandbox-cds-client';

export type CdsCaller = { issuer: string; clinicId: string; jti: string };

type CdsConfig = Pick<Config, 'cdsClients' | 'mode' | 'appUrl' | 'sealKey'>;
export type CdsJwtDeps = { db: Db; clock: Clock; egress: Egress; config: CdsConfig };

/** CDS Hooks 2.0: the JWT expires at most 5 minutes after it was issued. */
const MAX_LIFETIME_SECONDS = 300;
/** Clock skew tolerated on iat and exp. */
const SKEW_SECONDS = 30;
// The specification's required algorithms (ES384, RS384) and their siblings; never "none" or an HMAC (a shared
// secret would have to be in CDS_CLIENTS, which holds no secrets).
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
const JWKS_TTL_MS = 5 * 60_000;
/** A kid not in the cached set refetches the JWKS (a rotation), at most this often per issuer. */
const JWKS_REFETCH_MS = 30_000;

const refused = (why: string) =>
  new AppError('UNAUTHENTICATED', 'A valid EHR token is required', { cause: new Error(`cds jwt: ${why}`) });

/**
 * The CDS_CLIENTS binding; in sandbox without it, the sandbox EHR registered for each demo clinic (it signs with a
 * key derived from SEAL_KEY); else 501 NOT_CONFIGURED, before any work.
 */
export function requireCdsClients(config: CdsConfig): Record<string, CdsClient> {
  if (config.cdsClients) return config.cdsClients;
  if (config.mode === 'sandbox' && config.sealKey) return sandboxCdsClients(config.appUrl);
  throw new AppError('NOT_CONFIGURED', 'CDS Hooks is not configured', {
    cause: new Error('unconfigured: CDS_CLIENTS'),
  });
}

/** The bearer token of an Authorization header, or null. */
export function readBearer(authorization: string | null): string | null {
  const match = /^Bearer +([A-Za-z0-9_\-.]+)$/.exec(authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * Verifies the EHR's JWT for a call to `audience` (the service's URL, or a URL of it such as its feedback URL).
 * Throws UNAUTHENTICATED (401) for a missing, malformed, unsigned, wrongly signed, unknown-issuer, wrong-aud,
 * expired, too-long-lived or replayed token; the jti is spent only once everything else holds.
 */
export async function verifyCdsJwt(
  deps: CdsJwtDeps,
  token: string | null,
  audiences: readonly string[],
): Promise<CdsCaller> {
  const clients = requireCdsClients(deps.config);
  if (!token || token.length > 16 * KIB) throw refused('no bearer');
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    throw refused('undecodable');
  }
  const client = typeof issuer === 'string' && Object.hasOwn(clients, issuer) ? clients[issuer] : undefined;
  if (!client || typeof issuer !== 'string') throw refused('unknown issuer');

  const now = deps.clock();
  const keys = await jwksFor(deps, issuer, client);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      issuer,
      audience: [...audiences],
      algorithms: ALGORITHMS,
      currentDate: now,
      clockTolerance: SKEW_SECONDS,
      requiredClaims: ['exp', 'iat', 'jti'],
    }));
  } catch (error) {
    throw refused(`verify: ${(error as { code?: string }).code ?? 'failed'}`);
  }
  const { exp, iat, jti } = payload as { exp: number; iat: number; jti: unknown };
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 200) throw refused('jti');
  if (exp - iat > MAX_LIFETIME_SECONDS || iat > now.getTime() / 1000 + SKEW_SECONDS) throw refused('lifetime');
  if (!(await spendJti(deps.db, `${issuer} ${jti}`, new Date((exp + SKEW_SECONDS) * 1000), now))) {
    throw refused('replayed jti');
  }
  return { issuer, clinicId: client.clinicId, jti };
}

// Single use across every instance: the primary key decides, so of two concurrent replays one insert wins.
// Spent ids are kept until their token would have expired anyway, then swept by later calls.
async function spendJti(db: Db, id: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.cdsJwtUse.deleteMany({ where: { expiresAt: { lt: now } } });
  const inserted = await db.$executeRaw`
    INSERT INTO "CdsJwtUse" ("id", "expiresAt") VALUES (${id}, ${expiresAt}) ON CONFLICT ("id") DO NOTHING`;
  return inserted === 1;
}

type CachedJwks = { keys: ReturnType<typeof createLocalJWKSet>; kids: Set<string>; fetchedAt: number };
const jwksCache = new Map<string, CachedJwks>();
// One fetch at a time per key set: calls that find it stale together (or a burst of forged tokens naming unknown
// kids) wait for the same answer instead of each asking the EHR.
const jwksFetches = new Map<string, Promise<CachedJwks>>();

// The key set is fetched through the egress client from the operator's URL (never from a `jku` the token names:
// the token would then choose who vouches for it), cached for 5 minutes, refetched early when an unknown kid
// arrives (the EHR rotated its key).
async function jwksFor(deps: CdsJwtDeps, issuer: string, client: CdsClient) {
  const key = `${issuer} ${client.jwksUrl}`;
  const cached = jwksCache.get(key);
  const now = Date.now();
  return async (header: { kid?: string }, token: Parameters<ReturnType<typeof createLocalJWKSet>>[1]) => {
    let entry = cached;
    const stale = !entry || now - entry.fetchedAt > JWKS_TTL_MS;
    const unknownKid =
      !!entry && !!header.kid && !entry.kids.has(header.kid) && now - entry.fetchedAt > JWKS_REFETCH_MS;
    if (stale || unknownKid) {
      let fetching = jwksFetches.get(key);
      if (!fetching) {
        fetching = fetchJwks(deps.egress, client.jwksUrl)
          .then((fetched) => (jwksCache.set(key, fetched), fetched))
          .finally(() => jwksFetches.delete(key));
        jwksFetches.set(key, fetching);
      }
      entry = await fetching;
    }
    return entry!.keys(header as never, token);
  };
}

async function fetchJwks(egress: Egress, jwksUrl: string): Promise<CachedJwks> {
  const res = await egress.request({
    url: jwksUrl,
    headers: { accept: 'application/json' },
    target: 'operator',
    purpose: 'cds-client',
    maxBodyBytes: 256 * KIB,
    timeoutMs: 10_000,
  });
  const where = loggableUrl(new URL(jwksUrl));
  if (res.status !== 200) throw egressError('cds-client', { reason: 'status', status: res.status, url: where });
  let set: JSONWebKeySet;
  try {
    set = JSON.parse(res.text()) as JSONWebKeySet;
    if (!Array.isArray(set.keys)) throw new Error('no keys array');
  } catch (error) {
    throw egressError('cds-client', { reason: 'invalid-body', url: where }, error);
  }
  return {
    keys: createLocalJWKSet(set),
    kids: new Set(set.keys.map((k) => k.kid).filter((k): k is string => typeof k === 'string')),
    fetchedAt: Date.now(),
  };
}
