// BigInt cents columns become JSON numbers at the API boundary; a value a JSON number cannot hold exactly is
// a bug to surface, never a number to round.
export function centsToNumber(value: bigint | number): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`cents value outside the safe integer range: ${value}`);
  return n;
}
