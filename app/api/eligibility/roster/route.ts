// POST /api/eligibility/roster: a day's appointments checked through a capped pool (eligibility:read). JSON by
// default; NDJSON progress lines when the client's Accept asks for application/x-ndjson.
import { route } from '@/lib/http/route';
import { requirePayer } from '@/lib/deps';
import { acceptsNdjson, ndjsonResponse } from '@/lib/http/ndjson';
import { jsonText, toJson } from '@/lib/http/responses';
import { postEligibilityRoster } from '@/lib/eligibility/endpoints';
import { prepareRoster, RosterProgressLine, RosterResult, RosterSummary } from '@/lib/eligibility/check-roster';

export const POST = route(postEligibilityRoster, async ({ request, body, actor, deps, correlationId, log }) => {
  // Every refusal (503, 403, 400) happens here, before a single line is streamed.
  const roster = await prepareRoster({ ...deps, payer: requirePayer(deps), log }, actor, body);
  if (!acceptsNdjson(request)) {
    // Each result goes through its schema into JSON as it finishes, in the waits for the payer, instead of all of
    // them through the response schema after the last answer (7-20 ms at the end of a 500-appointment roster,
    // bench roster). The same schemas RosterResponse is made of, so the body is the one it would give.
    const results: string[] = [];
    const { summary } = await roster.run({
      signal: request.signal,
      onResult: (index, result) => (results[index] = toJson(RosterResult.parse(result))),
    });
    return jsonText(`{"summary":${toJson(RosterSummary.parse(summary))},"results":[${results.join(',')}]}`);
  }
  return ndjsonResponse(
    async (write, signal) => {
      // Each line goes through its schema, as JSON responses do, so no field leaks by accident.
      const { summary } = await roster.run({
        signal: AbortSignal.any([signal, request.signal]),
        onResult: (index, result) => write(RosterProgressLine.parse({ type: 'result', index, ...result })),
      });
      write(RosterProgressLine.parse({ type: 'summary', summary }));
    },
    {
      correlationId,
      onError: (error) =>
        log.error({ err: error instanceof Error ? error.message : String(error) }, 'roster stream failed'),
    },
  );
});
