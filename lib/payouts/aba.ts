// ABA routing numbers: nine digits whose weighted sum (weights 3, 7, 1 repeating) is a multiple of 10.
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

export function isAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const sum = WEIGHTS.reduce((total, weight, i) => total + weight * Number(value[i]), 0);
  return sum % 10 === 0;
}

/** The check digit that completes an 8-digit routing prefix. */
export function abaCheckDigit(prefix8: string): string {
  const sum = WEIGHTS.slice(0, 8).reduce((total, weight, i) => total + weight * Number(prefix8[i]), 0);
  return String((10 - (sum % 10)) % 10);
}
