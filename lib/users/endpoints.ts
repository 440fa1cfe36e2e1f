// User management for a clinic admin (scope users:admin; DECISIONS "Staff app").
import type { Endpoint } from '../endpoint';

export const userEndpoints: readonly Endpoint[] = [];
