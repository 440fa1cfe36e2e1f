import { endpoint } from '../endpoint';
import { AppointmentList, ListAppointmentsQuery } from './list-appointments';

export const getAppointments = endpoint({
  method: 'GET',
  path: '/api/appointments',
  summary:
    "The clinic's appointments of one day (the clinic's calendar day in its time zone; `date` defaults to the " +
    "clinic's today), for the eligibility roster",
  tags: ['appointments'],
  auth: 'session',
  scope: 'appointments:read',
  query: ListAppointmentsQuery,
  response: AppointmentList,
});

export const appointmentEndpoints = [getAppointments];
