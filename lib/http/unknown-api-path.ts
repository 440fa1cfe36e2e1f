// Any path under /api that no route serves: a typed 404 through the wrapper (authenticated like every API
// path), instead of Next's HTML not-found page. Not an operation, so it is not in the registry or OpenAPI.
import { endpoint, type Endpoint } from '../endpoint';
import { AppError } from '../errors';
import { route } from './route';

export function unknownApiPath(method: Endpoint['method']) {
  return route(
    endpoint({ method, path: '/api/{...path}', summary: 'Any other path under /api', tags: [], auth: 'session' }),
    () => {
      throw new AppError('NOT_FOUND', 'There is no such API route');
    },
  );
}
