// The summary of one thing a screen is about (a claim, a remittance and each of its claims, a payout instruction,
// a denial): terms and their values in a grid that wraps to the width it has. An item left out is simply not
// rendered by the caller (`{x ? <SummaryItem …/> : null}`).
import type { ReactNode } from 'react';

export function SummaryList({ children }: { children: ReactNode }) {
  return <dl className="billing-summary">{children}</dl>;
}

export function SummaryItem({
  term,
  testId,
  valueProps,
  children,
}: {
  term: ReactNode;
  /** The value's test id. */
  testId?: string;
  /** Other attributes of the value: data the specs read beside its words (a claim's status code, say). */
  valueProps?: Record<`data-${string}`, string>;
  children: ReactNode;
}) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-testid={testId} {...valueProps}>
        {children}
      </dd>
    </div>
  );
}
