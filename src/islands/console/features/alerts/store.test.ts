import { describe, expect, it } from 'vitest';
import { configPayload, emptyChannel, validateChannel, type ChannelForm } from './store.ts';

const form = (over: Partial<ChannelForm>): ChannelForm => ({ ...emptyChannel(), name: 'Ops', ...over });

describe('the channel form', () => {
  it('on edit leaves an empty secret out, so the server keeps the stored one', () => {
    const f = form({ type: 'telegram', config: { bot_token: '', chat_id: '@ops_room' } });
    expect(configPayload(f, true)).toEqual({ chat_id: '@ops_room' });
    expect(validateChannel(f, true)).toEqual({});
    // on create the secret is required
    expect(validateChannel(f, false)).toEqual({ 'config.bot_token': 'Bot token is required' });
  });

  it('sends e-mail recipients as a list and leaves empty optional fields out', () => {
    expect(configPayload(form({ type: 'email', config: { to: 'a@example.com\n b@example.com ,' } }), false)).toEqual({
      to: ['a@example.com', 'b@example.com'],
    });
    expect(configPayload(form({ type: 'mattermost', config: { url: 'https://mm.example.com/hooks/x', channel: ' ' } }), false)).toEqual({
      url: 'https://mm.example.com/hooks/x',
    });
  });

  it('sends only the fields of the chosen type', () => {
    expect(configPayload(form({ type: 'webhook', config: { url: 'http://127.0.0.1:9/x', topic: 'left over' } }), false)).toEqual({
      url: 'http://127.0.0.1:9/x',
    });
  });

  it('asks for an event and, when monitors are chosen, at least one', () => {
    expect(validateChannel(form({ config: { url: 'https://x.example' }, events: [], monitorIds: [] }), false)).toEqual({
      events: 'Choose at least one event',
      monitor_ids: 'Choose at least one monitor, or all monitors',
    });
  });
});
