// Public discovery endpoints: health and the OpenAPI document.
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { Health } from './check-health';

export const getHealth = endpoint({
  method: 'GET',
  path: '/api/health',
  summary: 'Service health: mode and database reachability',
  tags: ['discovery'],
  auth: 'public',
  response: Health,
  errors: ['DEPENDENCY_UNAVAILABLE'],
});

export const getOpenApi = endpoint({
  method: 'GET',
  path: '/api/openapi.json',
  summary: 'This OpenAPI 3.1 document, generated from the route schemas',
  tags: ['discovery'],
  auth: 'public',
  response: z.record(z.string(), z.unknown()),
});

export const healthEndpoints = [getHealth, getOpenApi];
