import { describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { LINEAR_API_KEY, LINEAR_TEAM_ID, startLinearReceiver } from '../../../../tests/fixtures/receivers/linear-receiver.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { linear } from './linear.ts';

const receiver = receiverForFile(startLinearReceiver);

const config = (over: Record<string, unknown> = {}) => linear.parseConfig({ api_key: LINEAR_API_KEY, team_id: LINEAR_TEAM_ID, ...over });
const env = () => envFor({ linear: receiver().url });

describe('Linear channel', () => {
  it('opens an issue with issueCreate (team, title, Markdown) and comments on it with commentCreate', async () => {
    const open = linear.openIssue(openedAlert(), config(), env());
    expect(open).toMatchObject({ url: receiver().url, method: 'POST', headers: { authorization: LINEAR_API_KEY } });
    const sent = JSON.parse(open.body);
    expect(sent.variables.input).toMatchObject({ teamId: LINEAR_TEAM_ID, title: '[Acme & Sons <Ltd>] Website *prod* <b> is down' });
    const answer = await sendAccepted(receiver(), open, 200);
    expect(linear.answerError(answer.body)).toBeNull();
    const issue = linear.readIssue(answer.body, config());
    expect(issue).toMatchObject({ key: 'ENG-1', url: 'https://linear.app/acme/issue/ENG-1' });
    const stored = receiver().issues[0];
    // Markdown with the monitor's name escaped, so *prod* is not shown in italics.
    expect(stored.description).toContain('- Website \\*prod\\* <b\\> (https://acme.example.com/health?a=1&b=2)');
    expect(stored.description).toContain('[Open in console](http://acme.localhost:4321/monitors?incident=inc-42)');
    expect(stored.description).not.toContain('/ack?');

    const comment = await sendAccepted(receiver(), linear.comment(resolvedAlert(), issue!, config(), env()), 200);
    expect(linear.answerError(comment.body)).toBeNull();
    expect(stored.comments).toHaveLength(1);
    expect(stored.comments[0].split('\n\n').slice(0, 2)).toEqual([
      '**Website \\*prod\\* <b\\> is up again**',
      'The monitor answers again after 12 minutes down.',
    ]);
  });

  it("names the issue by the delivery's UUID, so a retry asks for it with issue(id:) and finds it", async () => {
    const alert = openedAlert({ deliveryId: 'msg_3f2b8a1c9d0e4f7a8b6c5d4e3f2a1b0c' });
    const answer = await sendAccepted(receiver(), linear.openIssue(alert, config(), env()), 200);
    expect(linear.readIssue(answer.body, config())?.id).toBe('3f2b8a1c-9d0e-4f7a-8b6c-5d4e3f2a1b0c');
    const found = await sendAccepted(receiver(), linear.findIssue(alert, config(), env())!, 200);
    expect(linear.readFound(found.body, config())).toMatchObject({ id: '3f2b8a1c-9d0e-4f7a-8b6c-5d4e3f2a1b0c' });
    const never = openedAlert({ deliveryId: 'msg_0a0b0c0d0e0f4a1b8c2d3e4f5a6b7c8d' });
    const none = await sendAccepted(receiver(), linear.findIssue(never, config(), env())!, 200);
    expect(linear.readFound(none.body, config())).toBeNull();
  });

  it('a grouped alert over 1,000 monitors is one issue listing 50 and counting the rest', async () => {
    const answer = await sendAccepted(receiver(), linear.openIssue(groupedAlert(1000), config(), env()), 200);
    const issue = receiver().issues.find((i) => i.id === linear.readIssue(answer.body, config())?.id)!;
    expect(issue.description).toContain('- and 950 more monitors');
  });

  it("Linear's refusals in a 200 answer are errors, named by their code only", async () => {
    const other = config({ team_id: '00000000-0000-4000-8000-000000000000' });
    const answer = await sendAccepted(receiver(), linear.openIssue(openedAlert(), other, env()), 200);
    expect(linear.answerError(answer.body)).toBe('Linear refused the request (InvalidInput)');
    expect(linear.readIssue(answer.body, other)).toBeNull();
    const badKey = linear.openIssue(openedAlert(), config({ api_key: 'lin_api_wrong' }), env());
    const refused = await fetch(badKey.url, { method: 'POST', headers: badKey.headers, body: badKey.body });
    expect(refused.status).toBe(400);
    expect(linear.answerError(await refused.text())).toBe('Linear refused the request (AUTHENTICATION_ERROR)');
  });

  itRefusesConfigs(linear.parseConfig, [
    [{ team_id: LINEAR_TEAM_ID }, 'api_key', 'API key is required.'],
    [{ api_key: 'Bearer abc', team_id: LINEAR_TEAM_ID }, 'api_key', 'API key must be a personal API key starting with lin_api_.'],
    [{ api_key: LINEAR_API_KEY, team_id: 'ENG' }, 'team_id', 'Team ID must be a team UUID such as 9cfb482a-81e3-4154-b5b9-2c805e70a02d.'],
  ]);
});
