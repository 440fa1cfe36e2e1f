// The provider's network status in words (the payer's own MSG text decides it; UNKNOWN when it said nothing).
export function networkLabel(network: 'IN' | 'OUT' | 'UNKNOWN'): string {
  return network === 'IN' ? 'In network' : network === 'OUT' ? 'Out of network' : 'Not stated';
}
