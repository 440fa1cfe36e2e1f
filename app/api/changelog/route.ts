// GET /api/changelog: public; CHANGELOG.md as JSON entries (DECISIONS "Events out").
import { route } from '@/lib/http/route';
import { getChangelogEndpoint } from '@/lib/changelog/endpoints';
import { readChangelog } from '@/lib/changelog/read-changelog';

export const GET = route(getChangelogEndpoint, () => readChangelog());
