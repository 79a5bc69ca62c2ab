import { describe, expect, it } from 'vitest';
import { sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { NTFY_TOKEN, NTFY_TOPIC, startNtfyReceiver } from '../../../../tests/fixtures/receivers/ntfy-receiver.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { ntfy } from './ntfy.ts';

const receiver = receiverForFile(() => startNtfyReceiver({ protectedTopic: true }));

const config = (over: Record<string, unknown> = {}) =>
  ntfy.parseConfig({ server_url: receiver().origin, topic: NTFY_TOPIC, access_token: NTFY_TOKEN, ...over });

describe('ntfy channel', () => {
  it.each([
    ['opened', openedAlert(), 5, ['rotating_light']],
    ['resolved', resolvedAlert(), 3, ['white_check_mark']],
    ['grouped (1,000 monitors)', groupedAlert(1000), 5, ['rotating_light']],
  ])('the server accepts the %s alert with its title, priority and tags', async (_what, alert, priority, tags) => {
    const answer = await sendAccepted(receiver(), ntfy.build(alert, config(), envFor()), 200);
    expect(JSON.parse(answer.body)).toMatchObject({ event: 'message', topic: NTFY_TOPIC, priority, tags });
    expect(receiver().messages.at(-1)!.title).toBe(`${alert.title} (Acme & Sons <Ltd>)`);
  });

  it("lists a grouped alert's monitors, the rest counted, under ntfy's 4,096 bytes", async () => {
    await sendAccepted(receiver(), ntfy.build(groupedAlert(1000), config(), envFor()), 200);
    const text = receiver().messages.at(-1)!.message;
    expect(text).toContain('1000 monitors:\n- Service 1 <api> & co\n- Service 2 <api> & co');
    expect(text).toMatch(/…and \d+ more$/);
    expect(Buffer.byteLength(text)).toBeLessThan(4096);
  });

  it('sends the access token as a bearer token; a protected topic refuses a message without it', async () => {
    const request = ntfy.build(openedAlert(), config({ access_token: null }), envFor());
    expect(request.headers.authorization).toBeUndefined();
    expect((await send(request)).status).toBe(403);
    expect(ntfy.build(openedAlert(), config(), envFor()).headers.authorization).toBe(`Bearer ${NTFY_TOKEN}`);
  });

  it("posts JSON to the server's root (a pasted topic URL works too), and uses ntfy.sh when no server is given", async () => {
    const request = ntfy.build(openedAlert(), config({ server_url: `${receiver().origin}/${NTFY_TOPIC}` }), envFor());
    expect(request.url).toBe(`${receiver().origin}/`);
    await sendAccepted(receiver(), request, 200);
    expect(ntfy.parseConfig({ topic: 'alerts' }).server_url).toBe('https://ntfy.sh/');
  });

  itRefusesConfigs(ntfy.parseConfig, [
    [{ server_url: 'https://ntfy.sh' }, 'topic', 'Topic is required.'],
    [{ topic: 'my topic' }, 'topic', 'Topic must be letters, digits, - and _ only.'],
    [{ topic: 'ok', access_token: 'secret' }, 'access_token', 'Access token must be an ntfy access token (tk_ and 29 letters or digits).'],
    [{ topic: 'ok', server_url: 'ntfy.example.com' }, 'server_url', 'Server URL must be a full URL starting with https://.'],
  ]);

  it('keeps the topic and token secret and gives the server to the SSRF guard', () => {
    expect(ntfy.secretFields).toEqual(['topic', 'access_token']);
    expect(ntfy.tenantUrls(config())).toEqual([`${receiver().origin}/`]);
  });
});
