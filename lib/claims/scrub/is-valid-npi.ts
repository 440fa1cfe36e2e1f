// The National Provider Identifier's check digit: Luhn over the ten digits with the card-issuer prefix 80840
// in front (45 CFR 162.406; CMS "Requirements for the NPI check digit", ISO 7812). Shape and arithmetic only:
// whether NPPES has issued the number is not knowable offline.

const NPI_PREFIX = '80840';

export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  const digits = NPI_PREFIX + npi;
  let sum = 0;
  // From the right, every second digit (starting with the one left of the check digit) is doubled.
  for (let i = digits.length - 1, isDoubled = false; i >= 0; i--, isDoubled = !isDoubled) {
    let digit = digits.charCodeAt(i) - 48;
    if (isDoubled) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
