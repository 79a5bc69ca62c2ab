import { describe, expect, it } from 'vitest';
import { deliveredAlerts, sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { envFor, groupedAlert, openedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { SLACK_HOOK_PATH, startSlackReceiver } from '../../../../tests/fixtures/receivers/slack-receiver.ts';
import { slack } from './slack.ts';

const receiver = receiverForFile(startSlackReceiver);

const config = () => slack.parseConfig({ url: receiver().origin + SLACK_HOOK_PATH });

describe('Slack channel', () => {
  it.each(deliveredAlerts())('Slack accepts the %s alert as Block Kit with a text fallback', async (_what, alert) => {
    const request = slack.build(alert, config(), envFor());
    expect((await sendAccepted(receiver(), request, 200)).body).toBe('ok');
    const body = JSON.parse(request.body);
    expect(body.text).toMatch(/ \(Acme &amp; Sons &lt;Ltd&gt;\)$/);
    expect(body.blocks.map((b: { type: string }) => b.type)).toEqual(['header', 'section', 'section', 'section', 'context']);
  });

  it('lists the monitors of a grouped alert in one message, the rest counted', () => {
    const body = JSON.parse(slack.build(groupedAlert(1000), config(), envFor()).body);
    const list = body.blocks[2].text.text as string;
    expect(list).toMatch(/^\*1000 monitors\*\n• \*Service 1 &lt;api&gt; &amp; co\* https:\/\/svc-1\./);
    expect(list).toMatch(/…and \d+ more$/);
    expect(list.length).toBeLessThanOrEqual(3000);
  });

  it('shows markup in names as text, not as Slack links or mentions', () => {
    const body = JSON.parse(
      slack.build(openedAlert({ message: 'Failed: <!channel> <https://evil.example|click>' }), config(), envFor()).body,
    );
    expect(body.blocks[1].text.text).toBe('Failed: &lt;!channel&gt; &lt;https://evil.example|click&gt;');
    expect(body.blocks[2].fields[0].text).toContain('Website *prod* &lt;b&gt;');
  });

  it('the fake refuses what Slack refuses: a header over 150 characters, an unescaped "<"', async () => {
    const bad = slack.build(openedAlert(), config(), envFor());
    const body = JSON.parse(bad.body);
    body.blocks[0].text.text = 'x'.repeat(151);
    expect(await send({ ...bad, body: JSON.stringify(body) })).toEqual({ status: 400, body: 'invalid_blocks' });
    body.blocks[0].text.text = 'ok';
    body.blocks[1].text.text = 'a <b> tag';
    expect(await send({ ...bad, body: JSON.stringify(body) })).toEqual({ status: 400, body: 'invalid_blocks' });
  });

  itRefusesConfigs(slack.parseConfig, [
    [{}, 'url', 'Webhook URL is required.'],
    [{ url: 'hooks.slack.com/services/x' }, 'url', 'Webhook URL must be a full URL starting with https://.'],
    [{ url: 'ftp://hooks.slack.com/x' }, 'url', 'Webhook URL must start with https:// or http://.'],
    [{ url: 'https://u:p@hooks.slack.com/x' }, 'url', 'Webhook URL must not contain a user name or password.'],
    [{ url: 'https://hooks.slack.com/x', channel: '#ops' }, 'channel', 'Unknown setting "channel"; expected url.'],
    ['https://hooks.slack.com/x', 'config', 'The settings must be an object.'],
  ]);

  it('keeps the webhook URL secret and gives it to the SSRF guard', () => {
    const c = slack.parseConfig({ url: 'https://hooks.slack.com/services/T1/B2/xyz' });
    expect(slack.secretFields).toEqual(['url']);
    expect(slack.tenantUrls(c)).toEqual(['https://hooks.slack.com/services/T1/B2/xyz']);
  });
});
