// POST /api/auth/mfa/backup-codes: a new set of backup codes, the old set void at once (step-up, audited).
import { route } from '@/lib/http/route';
import { postBackupCodes } from '@/lib/auth/endpoints';
import { regenerateBackupCodes } from '@/lib/auth/regenerate-backup-codes';

export const POST = route(postBackupCodes, ({ principal, deps, correlationId }) =>
  regenerateBackupCodes(deps, { principal, correlationId }),
);
