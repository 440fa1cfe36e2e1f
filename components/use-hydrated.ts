// Whether React listens on this page yet. Before hydration a control that acts only through script does nothing
// when used (a Sign out clicked then leaves the session signed in, without a word), and a form submits itself as
// bare HTML: such controls are held disabled until this is true, so the screen says they are not ready yet.
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};
const onClient = () => true;
const onServer = () => false;

/** False in the server's HTML and during hydration; true from the first render after it, and at once in a part mounted later. */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, onClient, onServer);
}
