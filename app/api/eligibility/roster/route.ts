// POST /api/eligibility/roster: a day's appointments checked through a capped pool (eligibility:read). JSON by
// default; NDJSON progress lines when the client's Accept asks for application/x-ndjson.
import { route } from '@/lib/http/route';
import { requirePayer } from '@/lib/deps';
import { acceptsNdjson, ndjsonResponse } from '@/lib/http/ndjson';
import { postEligibilityRoster } from '@/lib/eligibility/endpoints';
import { prepareRoster, RosterProgressLine } from '@/lib/eligibility/check-roster';

export const POST = route(postEligibilityRoster, async ({ request, body, actor, deps, correlationId, log }) => {
  // Every refusal (503, 403, 400) happens here, before a single line is streamed.
  const roster = await prepareRoster({ ...deps, payer: requirePayer(deps), log }, actor, body);
  if (!acceptsNdjson(request)) return roster.run({ signal: request.signal });
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
