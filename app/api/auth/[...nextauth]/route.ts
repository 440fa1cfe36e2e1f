// GET/POST /api/auth/*: next-auth's own endpoints (csrf, session, signout, callback/credentials sign-in).
// The one route that does not use the wrapper: next-auth owns these paths; lib/auth/next-auth.ts shapes errors.
import { handleNextAuth } from '@/lib/auth/next-auth';

export { handleNextAuth as GET, handleNextAuth as POST };
