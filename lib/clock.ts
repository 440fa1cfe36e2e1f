// Time as a dependency: domain code that depends on "now" receives a Clock so tests can pin it.
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
