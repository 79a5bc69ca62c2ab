// Alert channels are plug-ins (notify/channels/): the OpenAPI document must list exactly the
// types that have a module, so registering one without documenting it (or the reverse) fails.
import { describe, expect, it } from 'vitest';
import { CHANNEL_FORMS } from '../../src/lib/channel-forms/index.ts';
import { CHANNELS, type ChannelType } from '../../src/server/notify/channels/index.ts';
import { CHANNEL_EVENTS } from '../../src/server/notify/outbox/alert-event.ts';
import { loadSpec } from '../../src/server/http/openapi/spec.ts';

type Json = Record<string, any>;

describe('alert channel types', () => {
  it('documents every registered channel type, and registers every documented one', async () => {
    const { document } = await loadSpec();
    const input: Json = document.paths['/api/v1/alert-channels'].post.requestBody.content['application/json'].schema;
    const type: Json = input.properties.type;
    expect(Object.keys(CHANNELS).sort()).toEqual([...type.enum].sort());
    expect(Object.keys(type['x-enumDescriptions'] ?? {}).sort()).toEqual(Object.keys(CHANNELS).sort());
    for (const [key, channel] of Object.entries(CHANNELS)) expect(channel.type).toBe(key);
    // Each channel's settings form (src/lib/channel-forms/) is the one its module validates with.
    expect(Object.keys(CHANNEL_FORMS).sort()).toEqual(Object.keys(CHANNELS).sort());
    for (const [key, channel] of Object.entries(CHANNELS)) expect(channel.label).toBe(CHANNEL_FORMS[key as ChannelType].label);
    expect([...input.properties.events.items.enum].sort()).toEqual([...CHANNEL_EVENTS].sort());
  });
});
