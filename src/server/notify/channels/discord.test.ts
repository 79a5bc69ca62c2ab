import { describe, expect, it } from 'vitest';
import { sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { DISCORD_HOOK_PATH, startDiscordReceiver } from '../../../../tests/fixtures/receivers/discord-receiver.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { discord } from './discord.ts';

const receiver = receiverForFile(startDiscordReceiver);

const config = () => discord.parseConfig({ url: receiver().origin + DISCORD_HOOK_PATH });

describe('Discord channel', () => {
  it.each([
    ['opened', openedAlert(), 0xd92d20],
    ['resolved', resolvedAlert(), 0x12b76a],
    ['grouped (1,000 monitors)', groupedAlert(1000), 0xd92d20],
    ['medium-severity', openedAlert({ severity: 'medium' }), 0xf79009],
  ])('Discord accepts the %s alert, coloured by severity', async (_what, alert, colour) => {
    const request = discord.build(alert, config(), envFor());
    expect((await sendAccepted(receiver(), request, 204)).body).toBe('');
    const body = JSON.parse(request.body);
    expect(body.embeds[0].color).toBe(colour);
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('stays within 2,000 characters of content and 4,096 of description however long the alert', async () => {
    const alert = groupedAlert(1000, { title: 'T'.repeat(5000), message: 'M'.repeat(10_000) });
    const request = discord.build(alert, config(), envFor());
    expect((await sendAccepted(receiver(), request, 204)).body).toBe('');
    const body = JSON.parse(request.body);
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.embeds[0].title).toHaveLength(256);
    expect(body.embeds[0].description.length).toBeLessThanOrEqual(4096);
  });

  it('lists grouped monitors with their Markdown escaped', () => {
    const description = JSON.parse(discord.build(groupedAlert(3), config(), envFor()).body).embeds[0].description as string;
    expect(description).toContain('**3 monitors**\n• Service 1 <api\\> & co https://svc-1.acme.example.com/health\n• Service 2');
    const single = JSON.parse(discord.build(openedAlert(), config(), envFor()).body).embeds[0];
    expect(single.fields.find((f: { name: string }) => f.name === 'Monitor').value).toContain('Website \\*prod\\* <b\\>');
  });

  it('the fake refuses content over 2,000 characters as Discord does', async () => {
    const request = discord.build(openedAlert(), config(), envFor());
    const answer = await send({ ...request, body: JSON.stringify({ content: 'x'.repeat(2001) }) });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
  });

  itRefusesConfigs(discord.parseConfig, [
    [{}, 'url', 'Webhook URL is required.'],
    [{ url: 'discord.com/api/webhooks/1/x' }, 'url', 'Webhook URL must be a full URL starting with https://.'],
  ]);

  it('keeps the webhook URL (it holds the token) secret', () => {
    expect(discord.secretFields).toEqual(['url']);
  });
});
