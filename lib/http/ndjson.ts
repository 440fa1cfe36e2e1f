// Streams newline-delimited JSON (application/x-ndjson): one JSON value per line, flushed as it is produced,
// for long operations whose client shows progress (the eligibility roster). Errors before the first line are
// the caller's to throw as usual; this only carries a run that has already passed every check.
import { NDJSON_TYPE } from '../endpoint';

/** True when the client lists application/x-ndjson in Accept (JSON stays the default). */
export function acceptsNdjson(request: Request): boolean {
  return (request.headers.get('accept') ?? '')
    .split(',')
    .some((part) => part.split(';')[0]!.trim().toLowerCase() === NDJSON_TYPE);
}

/**
 * A 200 response whose body is written by `produce` through `write(line)`. When the client goes away, `signal`
 * aborts and further writes are dropped. A throw inside `produce` ends the stream with an error line
 * `{ type: "error", code, message, correlationId }` after logging it through `onError`.
 */
export function ndjsonResponse(
  produce: (write: (line: unknown) => void, signal: AbortSignal) => Promise<void>,
  options: { correlationId: string; onError: (error: unknown) => void },
): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (line: unknown) => {
        if (closed) return;
        controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      void produce(write, abort.signal)
        .catch((error: unknown) => {
          options.onError(error);
          write({
            type: 'error',
            code: 'INTERNAL_ERROR',
            message: 'Something went wrong; quote the correlation id to support',
            correlationId: options.correlationId,
          });
        })
        .finally(() => {
          if (closed) return;
          closed = true;
          controller.close();
        });
    },
    cancel() {
      closed = true;
      abort.abort();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': `${NDJSON_TYPE}; charset=utf-8`,
      // no-transform keeps the server's gzip from holding lines back until its buffer fills.
      'cache-control': 'no-store, no-transform',
      'x-content-type-options': 'nosniff',
    },
  });
}
