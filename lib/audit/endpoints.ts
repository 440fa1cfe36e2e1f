// The audit log, read by a clinic admin (scope users:admin; DECISIONS "Staff app").
import type { Endpoint } from '../endpoint';

export const auditEndpoints: readonly Endpoint[] = [];
