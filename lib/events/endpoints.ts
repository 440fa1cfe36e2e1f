// Events out (DECISIONS "Events out"): the clinic's webhook endpoints, their deliveries, re-send and test events.
// Scope webhooks:admin; every change is step-up (it decides where the clinic's events and their signatures go).
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { CreateWebhookEndpointBody, EndpointWithSecret } from './create-webhook-endpoint';
import { DeliveryView } from './delivery-view';
import { DeliveryList } from './list-deliveries';
import { WebhookEndpointList } from './list-webhook-endpoints';
import { RotatedSecret } from './rotate-signing-secret';
import { UpdateWebhookEndpointBody } from './update-webhook-endpoint';
import { WebhookEndpointView } from './webhook-endpoint-view';

const tags = ['webhook-endpoints'];
const Id = z.object({ id: z.string().min(1).max(100) });
const DeliveryEnvelope = z.object({ delivery: DeliveryView });

export const listWebhookEndpointsEndpoint = endpoint({
  method: 'GET',
  path: '/api/webhook-endpoints',
  summary: "The clinic's webhook endpoints, newest first (never a secret)",
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  response: WebhookEndpointList,
});

export const createWebhookEndpointEndpoint = endpoint({
  method: 'POST',
  path: '/api/webhook-endpoints',
  summary:
    'Register an endpoint for event types (or ["*"]); answers its signing secret (whsec_…) once. In production the ' +
    'URL must be https and resolve to public addresses only',
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  stepUp: true,
  body: CreateWebhookEndpointBody,
  response: EndpointWithSecret,
  successStatus: 201,
  errors: ['DEPENDENCY_UNAVAILABLE'],
});

export const getWebhookEndpointEndpoint = endpoint({
  method: 'GET',
  path: '/api/webhook-endpoints/{id}',
  summary: 'One webhook endpoint of the clinic (never a secret)',
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  params: Id,
  response: WebhookEndpointView,
  errors: ['NOT_FOUND'],
});

export const updateWebhookEndpointEndpoint = endpoint({
  method: 'PATCH',
  path: '/api/webhook-endpoints/{id}',
  summary: 'Change the URL, events or description, or disable or enable the endpoint (enabling resumes its deliveries)',
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  stepUp: true,
  params: Id,
  body: UpdateWebhookEndpointBody,
  response: WebhookEndpointView,
  errors: ['NOT_FOUND'],
});

export const deleteWebhookEndpointEndpoint = endpoint({
  method: 'DELETE',
  path: '/api/webhook-endpoints/{id}',
  summary: 'Delete the endpoint and its deliveries (the events stay)',
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  stepUp: true,
  params: Id,
  successStatus: 204,
  errors: ['NOT_FOUND'],
});

export const rotateSecretEndpoint = endpoint({
  method: 'POST',
  path: '/api/webhook-endpoints/{id}/rotate-secret',
  summary: 'A new signing secret, answered once; the previous one signs beside it for 24 h',
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  stepUp: true,
  params: Id,
  response: RotatedSecret,
  errors: ['NOT_FOUND', 'DEPENDENCY_UNAVAILABLE'],
});

export const sendTestEventEndpoint = endpoint({
  method: 'POST',
  path: '/api/webhook-endpoints/{id}/test',
  summary: 'Queue a webhook.test event to this endpoint only (202: it is delivered like any other)',
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  params: Id,
  response: DeliveryEnvelope,
  successStatus: 202,
  errors: ['NOT_FOUND'],
});

export const listDeliveriesEndpoint = endpoint({
  method: 'GET',
  path: '/api/webhook-endpoints/{id}/deliveries',
  summary: "The endpoint's deliveries, newest first, at most 100, with the last attempt's status and latency",
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  params: Id,
  response: DeliveryList,
  errors: ['NOT_FOUND'],
});

export const resendDeliveryEndpoint = endpoint({
  method: 'POST',
  path: '/api/webhook-endpoints/{id}/deliveries/{deliveryId}/resend',
  summary: 'Send the delivery’s event again as a new delivery (same event id, new X-Svc-Delivery)',
  tags,
  auth: 'session',
  scope: 'webhooks:admin',
  stepUp: true,
  params: z.object({ id: z.string().min(1).max(100), deliveryId: z.string().min(1).max(100) }),
  response: DeliveryEnvelope,
  successStatus: 202,
  errors: ['NOT_FOUND'],
});

export const eventEndpoints = [
  listWebhookEndpointsEndpoint,
  createWebhookEndpointEndpoint,
  getWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  rotateSecretEndpoint,
  sendTestEventEndpoint,
  listDeliveriesEndpoint,
  resendDeliveryEndpoint,
];
