// Outbound HTTP to an outside party (EMR authorization server, FHIR server): one policy for every such call.
// Redirects are refused (one would carry codes, assertions, tokens or PHI to an address we did not choose),
// one timeout covers the request and the body read (a server that sends headers and then stalls still times
// out), and failing to get a response is TRANSPORT_FAILED with the caller's client-safe message. What a
// non-OK status means is the caller's to decide.
import { AppError } from './errors';

export type FetchTextOptions = { fetch?: typeof fetch; timeoutMs: number; unreachableMessage: string };

export async function fetchText(
  url: string | URL,
  init: Omit<RequestInit, 'redirect' | 'signal'>,
  options: FetchTextOptions,
): Promise<{ response: Response; text: string }> {
  try {
    const response = await (options.fetch ?? fetch)(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs) });
    return { response, text: await response.text() };
  } catch (error) {
    throw new AppError('TRANSPORT_FAILED', options.unreachableMessage, { cause: error });
  }
}
