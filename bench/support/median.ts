/** The middle value (the upper of the two middle ones for an even count): every bench's summary of its runs. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
