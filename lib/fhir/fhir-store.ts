// The FHIR store port: where pulled FHIR R4 resources live, per clinic. Two adapters: the embedded store in the
// app's database (embedded-fhir-store.ts) and an external FHIR R4 server over REST (rest-fhir-store.ts), chosen
// by FHIR_STORE_URL in lib/deps.ts. Only what we use: upsert a pull's resources, read one, search one type.
import type { FhirResourceType } from './resource-registry';
import type { FhirResource } from './types';

/** A resource as the store holds it: meta.versionId and meta.lastUpdated are the store's own. */
export type StoredResource = FhirResource & { meta: { versionId: string; lastUpdated: string } };

export type UpsertCounts = { created: number; updated: number; unchanged: number };

export type UpsertResult = {
  /** Per resource type: how many of the given resources were new, changed (version bumped) or identical. */
  byType: Record<string, UpsertCounts>;
  /** Per resource type: how many stored resources the write's `deletes` removed (absent: none asked). */
  deleted?: Record<string, number>;
};

/**
 * A resource the source deleted (a Bulk Data manifest's `deleted` entry), by its type and id on the source.
 * Removed from that source's resources of the clinic only, in the same transaction, before the upserts (so a
 * resource both deleted and present in the pull, deleted then created again, stays).
 */
export type SourceDeletion = { resourceType: string; id: string };

export type WriteOptions = { sourceBaseUrl?: string; deletes?: readonly SourceDeletion[] };

export type LastUpdatedBound = { prefix: 'ge' | 'gt' | 'le' | 'lt'; at: Date };

export type FhirSearchQuery = {
  resourceType: FhirResourceType;
  /** _id: any of these logical ids. */
  ids?: string[];
  /** _lastUpdated: every bound must hold. */
  lastUpdated?: LastUpdatedBound[];
  /** patient: the id of the patient the resources are about (not for Patient). */
  patientId?: string;
  /** Only resources linked to a patient (the Patient compartment; Patient itself always is). */
  inPatientCompartment?: boolean;
  /** Page size; 0 answers only the total. */
  count: number;
  /** Opaque continuation from a previous page's nextCursor. */
  cursor?: string;
};

export type FhirSearchPage = {
  resources: StoredResource[];
  /** Present when more results follow; pass back as `cursor`. */
  nextCursor: string | null;
  /** Matches across all pages, when the store knows it. */
  total?: number;
};

export interface FhirStore {
  /** Shown to callers as `fhirStore`: 'embedded' or 'external'. */
  readonly name: 'embedded' | 'external';
  /**
   * Creates or updates every resource for the clinic in ONE transaction: all are written or none is.
   * Idempotent: an unchanged resource keeps its versionId; a changed one gets versionId + 1.
   * Throws AppError DEPENDENCY_UNAVAILABLE when the store cannot be reached or refuses the write (nothing
   * was written).
   */
  upsertMany(clinicId: string, resources: readonly FhirResource[], options?: WriteOptions): Promise<UpsertResult>;
  /**
   * Only stores in the app's database: commits a pull staged in FhirStagedResource under `syncRunId` (rows the
   * pull wrote with lib/emr/stage-resources.ts) with upsertMany's semantics, in ONE transaction that also deletes
   * the staged rows. Throws AppError DEPENDENCY_UNAVAILABLE (nothing written, staged rows left for the caller to
   * discard). Stores without it (the external one) take the pull through upsertMany.
   */
  commitStaged?(clinicId: string, syncRunId: string, options?: WriteOptions): Promise<UpsertResult>;
  /** The clinic's resource, or null. Throws AppError DEPENDENCY_UNAVAILABLE when the store cannot be reached. */
  read(clinicId: string, resourceType: FhirResourceType, id: string): Promise<StoredResource | null>;
  /**
   * One page of the clinic's resources of one type, oldest change first. Throws AppError
   * VALIDATION_FAILED for a cursor this store did not issue, DEPENDENCY_UNAVAILABLE when unreachable.
   */
  search(clinicId: string, query: FhirSearchQuery): Promise<FhirSearchPage>;
}
