// The operator's bindings of deployment-wide credentials to clinics (DECISIONS "Trust boundaries"): a clinic's
// SMART backend pull reads only the EHR Group bound to it (EMR_VENDORS["smart-backend"].groups), and its partner
// pull only the partner account bound to it (PARTNER_API_ACCOUNTS). Clinic staff use a binding; they can never
// create or widen one, because only the environment holds them.
import type { Config } from '../config';
import { AppError } from '../errors';

/** Group id bound to the clinic, or `*` for the whole population the registration sees; undefined when unbound. */
export function findSmartBackendGroup(config: Pick<Config, 'emrVendors'>, clinicId: string): string | undefined {
  return ownValue(config.emrVendors['smart-backend']?.groups, clinicId);
}

/** 403 before any call or write when the clinic has no Group binding. */
export function requireSmartBackendGroup(config: Pick<Config, 'emrVendors'>, clinicId: string): string {
  return findSmartBackendGroup(config, clinicId) ?? notLinked('EMR_VENDORS["smart-backend"].groups', clinicId);
}

/** The partner's account id for the clinic, sent as X-Partner-Account; 403 before any call when unbound. */
export function requirePartnerAccount(config: Pick<Config, 'partnerAccounts'>, clinicId: string): string {
  return ownValue(config.partnerAccounts, clinicId) ?? notLinked('PARTNER_API_ACCOUNTS', clinicId);
}

// Own keys only: a clinic id such as "__proto__" or "constructor" must not find an inherited value.
function ownValue(record: Record<string, string> | undefined, key: string): string | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

function notLinked(binding: string, clinicId: string): never {
  throw new AppError('FORBIDDEN', 'This clinic is not linked to that integration', {
    cause: new Error(`no binding for clinic ${clinicId} in ${binding}`),
  });
}
