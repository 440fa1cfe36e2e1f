// A list of scopes as an admin grants them (an invitation, a change of scopes): at least one, each a known scope.
import { z } from 'zod';
import { SCOPES } from '../auth/scopes';

export const ScopeList = z
  .array(z.enum(SCOPES, { message: `Each scope is one of ${SCOPES.join(', ')}` }))
  .min(1, { message: 'Choose at least one scope' })
  .max(SCOPES.length);
