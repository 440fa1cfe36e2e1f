// GET/POST /api/auth/*: next-auth's own endpoints (csrf, session, signout, callback/credentials sign-in).
// The one route that does not use the wrapper: next-auth owns these paths; lib/http/next-auth-route.ts shapes errors.
import { handleNextAuth } from '@/lib/http/next-auth-route';

export { handleNextAuth as GET, handleNextAuth as POST };
