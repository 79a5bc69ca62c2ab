// Jira Cloud's settings: the site, an Atlassian account's e-mail and API token (Basic auth), and
// where issues go (project key, issue type).
import type { ChannelForm } from './field.ts';

export const jiraForm: ChannelForm = {
  label: 'Jira Cloud',
  fields: [
    {
      key: 'url',
      label: 'Site URL',
      input: 'url',
      placeholder: 'https://your-team.atlassian.net',
      hint: 'Your Jira Cloud site',
    },
    {
      key: 'email',
      label: 'Account e-mail',
      input: 'text',
      hint: 'The Atlassian account the API token belongs to',
      max: 254,
      pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
      expected: 'an e-mail address',
    },
    {
      key: 'api_token',
      label: 'API token',
      input: 'text',
      secret: true,
      hint: 'id.atlassian.com → Security → API tokens',
      max: 300,
      pattern: /^\S+$/,
      expected: 'the API token, without spaces',
    },
    {
      key: 'project_key',
      label: 'Project key',
      input: 'text',
      placeholder: 'OPS',
      max: 10,
      pattern: /^[A-Z][A-Z0-9_]{1,9}$/,
      expected: 'a project key such as OPS (capital letters, digits, _)',
    },
    {
      key: 'issue_type',
      label: 'Issue type',
      input: 'text',
      default: 'Task',
      hint: 'As named in the project, e.g. Task, Bug, Incident',
      max: 60,
    },
  ],
};
