// The clinic's own settings: time zone and billing provider (DECISIONS "Staff app").
import { endpoint } from '../endpoint';
import { ClinicSettingsPatch, ClinicSettingsView } from './clinic-settings';

export const getClinicEndpoint = endpoint({
  method: 'GET',
  path: '/api/clinic',
  tags: ['clinic'],
  summary:
    'The signed-in user\'s clinic: name, IANA time zone (the clinic\'s "today") and billing provider (NPI, name, ' +
    'taxonomy, tax id, address). Any signed-in user',
  auth: 'session',
  response: ClinicSettingsView,
  errors: ['NOT_FOUND'],
});

export const patchClinicEndpoint = endpoint({
  method: 'PATCH',
  path: '/api/clinic',
  tags: ['clinic'],
  summary:
    'Change the clinic time zone (an IANA name) and billing provider fields; only the fields sent change. ' +
    'users:admin, step-up, audited',
  auth: 'session',
  scope: 'users:admin',
  stepUp: true,
  body: ClinicSettingsPatch,
  response: ClinicSettingsView,
});

export const clinicEndpoints = [getClinicEndpoint, patchClinicEndpoint];
