// Any other /api path: 404 NOT_FOUND as JSON, never Next's HTML page (see lib/http/unknown-api-path.ts).
import { unknownApiPath } from '@/lib/http/unknown-api-path';

export const GET = unknownApiPath('GET');
export const POST = unknownApiPath('POST');
export const PUT = unknownApiPath('PUT');
export const PATCH = unknownApiPath('PATCH');
export const DELETE = unknownApiPath('DELETE');
