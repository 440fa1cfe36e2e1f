'use client';
// The form that registers a webhook endpoint: its URL, a description and the events it subscribes to (the screen
// shows the new endpoint's secret, once).
import { useState, type FormEvent } from 'react';
import { Form } from '@/components/form';
import { EVENT_TYPES } from '@/lib/events/event-types';

const SUBSCRIBABLE = EVENT_TYPES.filter((t) => t !== 'webhook.test');

export function RegisterForm({
  onRegister,
}: {
  onRegister(url: string, events: string[], description: string): Promise<void>;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  async function submit(event: FormEvent) {
    event.preventDefault();
    await onRegister(url.trim(), events, description.trim());
  }
  const toggle = (type: string, on: boolean) =>
    setEvents((now) => (on ? [...now.filter((t) => t !== '*'), type] : now.filter((t) => t !== type)));
  return (
    <Form className="card" onSubmit={submit} aria-labelledby="register-title">
      <h2 id="register-title">Add an endpoint</h2>
      <label htmlFor="webhook-url">Endpoint URL (https)</label>
      <input
        id="webhook-url"
        type="url"
        required
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://example.com/hooks"
      />
      <label htmlFor="webhook-description">Description (optional)</label>
      <input id="webhook-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      <fieldset>
        <legend>Events</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={events.includes('*')}
            onChange={(e) => setEvents(e.target.checked ? ['*'] : [])}
          />{' '}
          All events
        </label>
        {SUBSCRIBABLE.map((type) => (
          <label key={type} className="checkbox">
            <input
              type="checkbox"
              checked={events.includes(type)}
              disabled={events.includes('*')}
              onChange={(e) => toggle(type, e.target.checked)}
            />{' '}
            <span className="mono">{type}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={!url.trim() || events.length === 0}>
        Add endpoint
      </button>
    </Form>
  );
}
