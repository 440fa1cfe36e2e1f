// Placeholder until the HTTP harness lands.
export default function setup() {}
