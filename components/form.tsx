'use client';
// Every staff form is this part. Until the page has hydrated its controls are disabled (one fieldset around
// them), so nothing typed or clicked before React listens is lost, and nothing submits the bare HTML form: that
// submission was a GET to the page's own URL, which put the sign-in form's password in the address (history, access
// logs, Referer), and reloaded other screens empty (seen in a CI run). `method="post"` is the second guard: a form
// submitted natively anyway sends its fields in the body, never in a URL.
import type { ComponentProps } from 'react';
import { useHydrated } from './use-hydrated';

export function Form({ children, ...props }: Omit<ComponentProps<'form'>, 'method'>) {
  const hydrated = useHydrated();
  return (
    <form method="post" {...props}>
      {/* display: contents (globals.css): the form lays out its controls as if the fieldset were not there. */}
      <fieldset className="form-controls" role="none" disabled={!hydrated}>
        {children}
      </fieldset>
    </form>
  );
}
