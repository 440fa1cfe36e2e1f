// Remittances (X12 835): the staff upload, the list and detail screens' reads (DECISIONS "Money in").
import type { Endpoint } from '../endpoint';

export const remittanceEndpoints: readonly Endpoint[] = [];
