// The published contract, checked on every response the HTTP tests see: the status must be one the OpenAPI
// document lists for that operation, and a JSON body must validate against the documented schema (errors
// against the Error schema; an NDJSON stream line by line against its line schema). A route that answers
// something it does not document fails the test that saw it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { buildOpenApi } from '@/lib/api/build-openapi';

type Json = Record<string, any>;

let doc: Json | undefined;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validators = new Map<string, ValidateFunction>();
let templates: { method: string; template: string; regex: RegExp }[] | undefined;

function openApi(): Json {
  doc ??= buildOpenApi('http://127.0.0.1');
  return doc;
}

function operations() {
  templates ??= Object.entries(openApi().paths as Record<string, Json>).flatMap(([template, ops]) =>
    Object.keys(ops).map((method) => ({
      method: method.toUpperCase(),
      template,
      regex: new RegExp(`^${template.replace(/[.$]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  );
  return templates;
}

function validatorFor(key: string, schema: Json): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    // Error bodies refer to a shared component (Error, or OAuthError for OAuth token endpoints).
    const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(\w+)$/.exec(schema.$ref) : null;
    const resolved = ref ? openApi().components.schemas[ref[1]!] : schema;
    v = ajv.compile(resolved);
    validators.set(key, v);
  }
  return v;
}

/** Returns a description of the violation, or null when the response honours the contract. */
export function contractViolation(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): string | null {
  const path = new URL(url).pathname;
  const candidates = operations().filter((o) => o.method === method && o.regex.test(path));
  // The most specific template wins (/api/fhir/metadata over /api/fhir/{type}).
  const op = candidates.sort(
    (a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0),
  )[0];
  if (!op) return null; // not an API operation (a page, or a method the route does not have: Next answers those)
  const response = (openApi().paths[op.template][op.method.toLowerCase()].responses as Json)[String(status)];
  if (!response) return `${method} ${op.template} answered ${status}, which the OpenAPI document does not list`;
  if (!contentType?.includes('json') || !response.content) return null;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  const media =
    response.content[mediaType] ?? response.content['application/json'] ?? Object.values(response.content)[0];
  if (!media?.schema) return null;
  const validate = validatorFor(`${method} ${op.template} ${status} ${mediaType}`, media.schema);
  if (mediaType === 'application/x-ndjson') {
    // A stream: the documented schema is that of one line, and every line must match it.
    const lines = String(body)
      .split('\n')
      .filter((line) => line.trim() !== '');
    for (const [i, line] of lines.entries()) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return `${method} ${op.template} ${status} NDJSON line ${i + 1} is not JSON`;
      }
      if (!validate(value))
        return `${method} ${op.template} ${status} NDJSON line ${i + 1} does not match the OpenAPI schema: ${ajv.errorsText(validate.errors)}`;
    }
    return null;
  }
  if (validate(body)) return null;
  return `${method} ${op.template} ${status} body does not match the OpenAPI schema: ${ajv.errorsText(validate.errors)}`;
}
