// Renders a PDF a handler produced as a download: application/pdf, an attachment named after what it is, never
// cached (a statement carries PHI).
import type { BillStatement } from '../bills/get-bill-statement';

export function renderBillStatement(result: BillStatement): Response {
  // Bill ids are our own (`bill_<hex>`); anything else is kept out of the header value all the same.
  const name = `statement-${result.billId.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
  return new Response(new Uint8Array(result.pdf), {
    status: 200,
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    },
  });
}
