import { describe, expect, it } from 'vitest';
import { deliveredAlerts, sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { MATTERMOST_HOOK_PATH, startMattermostReceiver } from '../../../../tests/fixtures/receivers/mattermost-receiver.ts';
import { envFor, groupedAlert, openedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { mattermost } from './mattermost.ts';

const receiver = receiverForFile(startMattermostReceiver);

const config = (extra: Record<string, unknown> = {}) => mattermost.parseConfig({ url: receiver().origin + MATTERMOST_HOOK_PATH, ...extra });

describe('Mattermost channel', () => {
  it.each(deliveredAlerts())('Mattermost accepts the %s alert as Markdown with an attachment', async (_what, alert) => {
    const request = mattermost.build(alert, config({ channel: 'town-square' }), envFor());
    expect((await sendAccepted(receiver(), request, 200)).body).toBe('ok');
    const body = JSON.parse(request.body);
    expect(body.channel).toBe('town-square');
    expect(body.attachments[0].color).toBe(alert.event === 'incident.resolved' ? '#12B76A' : '#D92D20');
  });

  it('writes the title as a heading with Markdown in names escaped', () => {
    const body = JSON.parse(mattermost.build(openedAlert(), config(), envFor()).body);
    expect(body.text.split('\n')[0]).toBe('#### Website \\*prod\\* <b\\> is down');
    expect(body.channel).toBeUndefined();
  });

  it("lists a grouped alert's monitors with Markdown escaped, the rest counted, within the post limit", async () => {
    const request = mattermost.build(groupedAlert(1000), config(), envFor());
    await sendAccepted(receiver(), request, 200);
    const text = JSON.parse(request.body).text as string;
    expect(text).toContain('**1000 monitors**\n- Service 1 <api\\> & co https://svc-1.acme.example.com/health\n- Service 2');
    expect(text).toMatch(/…and \d+ more\n\n\[Open in console\]/);
    expect(text.length).toBeLessThanOrEqual(16_383);
  });

  it('the fake refuses what Mattermost refuses: no text, a post over 16,383 characters', async () => {
    const request = mattermost.build(openedAlert(), config(), envFor());
    const empty = await send({ ...request, body: '{}' });
    expect(JSON.parse(empty.body)).toMatchObject({ id: 'web.incoming_webhook.text.app_error', status_code: 400 });
    expect((await send({ ...request, body: JSON.stringify({ text: 'x'.repeat(16384) }) })).status).toBe(400);
  });

  itRefusesConfigs(mattermost.parseConfig, [
    [{ url: 'https://chat.example.com/hooks/x', channel: 'Town Square' }, 'channel', 'Channel must be a channel name such as town-square.'],
    [{ channel: 'ops' }, 'url', 'Webhook URL is required.'],
  ]);
});
