import { endpoint } from '../endpoint';
import { AppointmentList, ListAppointmentsQuery } from './list-appointments';

export const getAppointments = endpoint({
  method: 'GET',
  path: '/api/appointments',
  summary: "The clinic's appointments of one day, for the eligibility roster",
  tags: ['appointments'],
  auth: 'session',
  scope: 'appointments:read',
  query: ListAppointmentsQuery,
  response: AppointmentList,
});

export const appointmentEndpoints = [getAppointments];
