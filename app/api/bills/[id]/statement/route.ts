// GET /api/bills/{id}/statement: the bill's patient statement as a PDF download (svcpay:read).
import { route } from '@/lib/http/route';
import { billStatementEndpoint } from '@/lib/bills/endpoints';
import { getBillStatement } from '@/lib/bills/get-bill-statement';
import { renderBillStatement } from '@/lib/http/pdf-response';

export const GET = route({ ...billStatementEndpoint, render: renderBillStatement }, ({ params, actor, deps }) =>
  getBillStatement(deps, { ...actor, billId: params.id }),
);
