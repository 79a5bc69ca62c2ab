import { describe, expect, it } from 'vitest';
import { sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { startTeamsReceiver, TEAMS_SIGNATURE, TEAMS_WORKFLOW_PATH } from '../../../../tests/fixtures/receivers/teams-receiver.ts';
import { teams } from './teams.ts';

const receiver = receiverForFile(startTeamsReceiver);

const config = () =>
  teams.parseConfig({
    url: `${receiver().origin}${TEAMS_WORKFLOW_PATH}?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${TEAMS_SIGNATURE}`,
  });

describe('Microsoft Teams channel', () => {
  it.each([
    ['opened', openedAlert(), 'Attention'],
    ['resolved', resolvedAlert(), 'Good'],
    ['grouped (1,000 monitors)', groupedAlert(1000), 'Attention'],
  ])('the workflow accepts the %s alert as an Adaptive Card 1.4', async (_what, alert, colour) => {
    const request = teams.build(alert, config(), envFor());
    expect((await sendAccepted(receiver(), request, 202)).body).toBe('');
    const { attachments } = JSON.parse(request.body);
    expect(attachments).toHaveLength(1);
    expect(attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(attachments[0].content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(attachments[0].content.body[0]).toMatchObject({ type: 'TextBlock', text: alert.title, color: colour });
    expect(attachments[0].content.actions.map((a: { title: string }) => a.title)).toEqual(
      alert.acknowledgeUrl ? ['Open in console', 'Acknowledge', 'Status page'] : ['Open in console', 'Status page'],
    );
  });

  it("lists a grouped alert's monitors within Teams' 28 KB", () => {
    const request = teams.build(groupedAlert(1000), config(), envFor());
    expect(Buffer.byteLength(request.body)).toBeLessThan(28 * 1024);
    const list = JSON.parse(request.body).attachments[0].content.body[4].text as string;
    expect(list.split('\n')[0]).toBe('- Service 1 <api> & co (https://svc-1.acme.example.com/health)');
    expect(list).toMatch(/…and \d+ more$/);
  });

  it('the fake refuses a card of version 1.2 and a card without a body', async () => {
    const request = teams.build(openedAlert(), config(), envFor());
    const body = JSON.parse(request.body);
    body.attachments[0].content.version = '1.2';
    expect((await send({ ...request, body: JSON.stringify(body) })).status).toBe(400);
    body.attachments[0].content.version = '1.5';
    body.attachments[0].content.body = [];
    expect((await send({ ...request, body: JSON.stringify(body) })).status).toBe(400);
  });

  itRefusesConfigs(teams.parseConfig, [
    [{}, 'url', 'Workflow webhook URL is required.'],
    [{ url: 'not a url' }, 'url', 'Workflow webhook URL must be a full URL starting with https://.'],
    [{ url: 12 }, 'url', 'Workflow webhook URL must be text.'],
  ]);

  it('keeps the signed workflow URL secret', () => {
    expect(teams.secretFields).toEqual(['url']);
    expect(teams.tenantUrls(config())).toEqual([config().url]);
  });
});
