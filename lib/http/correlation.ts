// Correlation ids: a trace id only, never a credential or tenant selector. A caller's id is kept when it is
// well formed (so partners can follow a request through our logs); anything else is replaced.
export const CORRELATION_HEADER = 'x-correlation-id';
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

export function isWellFormedCorrelationId(value: string | null | undefined): value is string {
  return !!value && WELL_FORMED.test(value);
}

export function readCorrelationId(headers: Headers): string {
  const incoming = headers.get(CORRELATION_HEADER);
  return isWellFormedCorrelationId(incoming) ? incoming : crypto.randomUUID();
}
