// The developer changelog (SPEC "Versioning" 2: a living contract), public like the OpenAPI document.
import { endpoint } from '../endpoint';
import { Changelog } from './read-changelog';

export const getChangelogEndpoint = endpoint({
  method: 'GET',
  path: '/api/changelog',
  summary: 'The API changelog (CHANGELOG.md, Keep a Changelog 1.1) as JSON entries, newest first',
  tags: ['discovery'],
  auth: 'public',
  response: Changelog,
});

export const changelogEndpoints = [getChangelogEndpoint];
