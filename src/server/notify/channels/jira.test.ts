import { describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import {
  adfText,
  JIRA_API_TOKEN,
  JIRA_EMAIL,
  JIRA_PROJECT,
  startJiraReceiver,
} from '../../../../tests/fixtures/receivers/jira-receiver.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { jira } from './jira.ts';

const receiver = receiverForFile(startJiraReceiver);

const config = (over: Record<string, unknown> = {}) =>
  jira.parseConfig({ url: receiver().origin, email: JIRA_EMAIL, api_token: JIRA_API_TOKEN, project_key: JIRA_PROJECT, ...over });

describe('Jira Cloud channel', () => {
  it('opens an issue Jira accepts (summary, ADF description, Basic auth) and comments on it when resolved', async () => {
    const open = jira.openIssue(openedAlert(), config(), envFor());
    expect(open.url).toBe(`${receiver().origin}/rest/api/3/issue`);
    expect(open.headers.authorization).toBe(`Basic ${Buffer.from(`${JIRA_EMAIL}:${JIRA_API_TOKEN}`).toString('base64')}`);
    const answer = await sendAccepted(receiver(), open, 201);
    const issue = jira.readIssue(answer.body, config());
    expect(issue).toEqual({ id: '10001', key: 'OPS-1', url: `${receiver().origin}/browse/OPS-1` });
    const stored = receiver().issues[0];
    expect(stored).toMatchObject({
      summary: '[Acme & Sons <Ltd>] Website *prod* <b> is down',
      issueType: 'Task',
      labels: ['statuswatch', 'statuswatch-incident-inc-42'],
    });
    expect(adfText(stored.description)).toContain('The check failed 3 times in a row');
    // The one-time acknowledge link is not written into an issue many people read.
    expect(JSON.stringify(stored.description)).not.toContain('/ack?');

    await sendAccepted(receiver(), jira.comment(resolvedAlert(), issue!, config(), envFor()), 201);
    expect(stored.comments).toHaveLength(1);
    expect(adfText(stored.comments[0])).toMatch(/^Website \*prod\* <b> is up again\nThe monitor answers again/);
  });

  it('a grouped alert over 1,000 monitors lists 50 and counts the rest, in a summary of one line', async () => {
    const answer = await sendAccepted(receiver(), jira.openIssue(groupedAlert(1000), config({ issue_type: 'Incident' }), envFor()), 201);
    const issue = receiver().issues.find((i) => i.key === jira.readIssue(answer.body, config())?.key)!;
    expect(issue).toMatchObject({ summary: '[Acme & Sons <Ltd>] 1000 monitors are down (1000 monitors)', issueType: 'Incident' });
    expect(adfText(issue.description)).toContain('and 950 more monitors');
  });

  it("finds an alert's issue again by its label with a JQL search (GET /rest/api/3/search/jql), and none for another incident", async () => {
    const found = await sendAccepted(receiver(), jira.findIssue(openedAlert(), config(), envFor())!, 200);
    expect(jira.readFound(found.body, config())).toEqual({ id: '10001', key: 'OPS-1', url: `${receiver().origin}/browse/OPS-1` });
    const other = openedAlert({ incident: { id: 'inc-43', title: 'x', status: 'investigating', impact: 'major' } });
    const none = await sendAccepted(receiver(), jira.findIssue(other, config(), envFor())!, 200);
    expect(jira.readFound(none.body, config())).toBeNull();
  });

  it('reads no issue from an answer that names none', () => {
    expect(jira.readIssue('{"errorMessages":[]}', config())).toBeNull();
    expect(jira.readIssue('<html>', config())).toBeNull();
  });

  itRefusesConfigs(jira.parseConfig, [
    [{ email: JIRA_EMAIL, api_token: 't', project_key: 'OPS' }, 'url', 'Site URL is required.'],
    [
      { url: 'https://acme.atlassian.net', email: 'nope', api_token: 't', project_key: 'OPS' },
      'email',
      'Account e-mail must be an e-mail address.',
    ],
    [{ url: 'https://acme.atlassian.net', email: JIRA_EMAIL, project_key: 'OPS' }, 'api_token', 'API token is required.'],
    [
      { url: 'https://acme.atlassian.net', email: JIRA_EMAIL, api_token: 't', project_key: 'ops' },
      'project_key',
      'Project key must be a project key such as OPS (capital letters, digits, _).',
    ],
    [
      { url: 'https://u:p@acme.atlassian.net', email: JIRA_EMAIL, api_token: 't', project_key: 'OPS' },
      'url',
      'Site URL must not contain a user name or password.',
    ],
  ]);
});
