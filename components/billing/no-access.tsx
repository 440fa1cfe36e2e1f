// What a billing page shows a signed-in user whose role lacks the page's scope (the nav hides the link; a typed
// URL lands here). The API refuses the same calls with SCOPE_MISSING.
export function NoAccess({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p className="card" data-testid="no-access">
        Your role can&apos;t do this; ask your clinic admin.
      </p>
    </>
  );
}
