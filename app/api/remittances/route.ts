// GET /api/remittances: the clinic's posted 835s (svcpay:read). POST: the staff upload of an 835 (svcpay:write).
import { readBodyBytes } from '@/lib/http/read-body';
import { route } from '@/lib/http/route';
import { listRemittancesEndpoint, uploadRemittanceEndpoint } from '@/lib/remittances/endpoints';
import { listRemittances } from '@/lib/remittances/remittance-view';
import { readUpload, UPLOAD_CAP } from '@/lib/remittances/read-upload';
import { uploadRemittance } from '@/lib/remittances/upload-remittance';

export const GET = route(listRemittancesEndpoint, ({ actor, deps }) =>
  listRemittances(deps, { clinicId: actor.clinicId }),
);

export const POST = route(uploadRemittanceEndpoint, async ({ request, actor, deps }) => {
  const bytes = await readBodyBytes(request, UPLOAD_CAP);
  const x12 = await readUpload({ contentType: request.headers.get('content-type') ?? '', bytes });
  return uploadRemittance(deps, { actor, x12 });
});
