// GET /api/remittances: the clinic's posted 835s (svcpay:read). POST: the staff upload of an 835 (svcpay:write).
import { route } from '@/lib/http/route';
import { listRemittancesEndpoint, uploadRemittanceEndpoint } from '@/lib/remittances/endpoints';
import { listRemittances } from '@/lib/remittances/remittance-view';
import { readUpload } from '@/lib/remittances/read-upload';
import { uploadRemittance } from '@/lib/remittances/upload-remittance';

export const GET = route(listRemittancesEndpoint, ({ actor, deps }) =>
  listRemittances(deps, { clinicId: actor.clinicId }),
);

export const POST = route(uploadRemittanceEndpoint, async ({ request, actor, deps }) => {
  const x12 = await readUpload({
    contentType: request.headers.get('content-type') ?? '',
    contentLength: request.headers.get('content-length'),
    body: request.body,
  });
  return uploadRemittance(deps, { actor, x12 });
});
