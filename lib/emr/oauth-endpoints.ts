// Where the browser authorization of a connection goes: the connection's own FHIR server (SMART discovery at
// {fhirBaseUrl}/.well-known/smart-configuration, aud = that URL) or, without one, its vendor's EMR_VENDORS entry
// (DECISIONS "EMR and FHIR"). An unconfigured endpoint is 503 DEPENDENCY_UNAVAILABLE before any network call.
// Each endpoint carries whose choice it is: the operator's (EMR_VENDORS) or the tenant's (discovered from the
// connection's own FHIR base), which decides the egress policy it is reached under.
import type { Config, EmrVendorKind } from '../config';
import { AppError } from '../errors';
import type { Egress, EgressTarget } from '../outbound/egress';
import { discoverSmartConfiguration } from './smart-configuration';

/** SMART App Launch v2 scopes for a standalone patient launch with a refresh token. */
export const BROWSER_OAUTH_SCOPE = 'launch/patient patient/*.read offline_access';
export const CALLBACK_PATH = '/api/emr-sync/callback';

export const redirectUriFor = (appUrl: string) => `${appUrl}${CALLBACK_PATH}`;

type ConnectionTarget = { vendor: string; fhirBaseUrl: string | null };

const vendorEntry = (config: Pick<Config, 'emrVendors'>, vendor: string) => config.emrVendors[vendor as EmrVendorKind];

/** The authorize endpoint and `aud`. Throws 503 when unconfigured, 502 (TRANSPORT_FAILED) when discovery fails. */
export async function resolveAuthorizeEndpoint(
  connection: ConnectionTarget,
  config: Pick<Config, 'emrVendors'>,
  egress: Egress,
): Promise<{ authorizationEndpoint: string; aud: string }> {
  if (connection.fhirBaseUrl) {
    const smart = await discoverSmartConfiguration(connection.fhirBaseUrl, { egress });
    return { authorizationEndpoint: smart.authorizationEndpoint, aud: connection.fhirBaseUrl };
  }
  const entry = vendorEntry(config, connection.vendor);
  if (!entry?.authorizeUrl || !entry.fhirBaseUrl) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', "The EMR's authorization endpoint is not configured", {
      cause: new Error(`unconfigured: EMR_VENDORS["${connection.vendor}"].authorizeUrl/fhirBaseUrl`),
    });
  }
  return { authorizationEndpoint: entry.authorizeUrl, aud: entry.fhirBaseUrl };
}

/**
 * How to reach the token endpoint, decided without any network call: a configured URL, or the FHIR base to
 * discover it from. Throws 503 when the vendor entry has no tokenUrl (DECISIONS: before touching the state).
 */
export type TokenEndpoint = { tokenUrl: string; target: EgressTarget };

export function planTokenEndpoint(
  connection: ConnectionTarget,
  config: Pick<Config, 'emrVendors'>,
): TokenEndpoint | { discoverFrom: string } {
  if (connection.fhirBaseUrl) return { discoverFrom: connection.fhirBaseUrl };
  const tokenUrl = vendorEntry(config, connection.vendor)?.tokenUrl;
  if (!tokenUrl) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', "The EMR's token endpoint is not configured", {
      cause: new Error(`unconfigured: EMR_VENDORS["${connection.vendor}"].tokenUrl`),
    });
  }
  return { tokenUrl, target: 'operator' };
}

/** A discovered token endpoint is the tenant's choice, like the FHIR base it came from. */
export async function resolveTokenEndpoint(
  plan: ReturnType<typeof planTokenEndpoint>,
  egress: Egress,
): Promise<TokenEndpoint> {
  if ('tokenUrl' in plan) return plan;
  return {
    tokenUrl: (await discoverSmartConfiguration(plan.discoverFrom, { egress })).tokenEndpoint,
    target: 'tenant',
  };
}
