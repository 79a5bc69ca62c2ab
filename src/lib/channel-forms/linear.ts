// Linear's settings: a personal API key and the team whose issues the incidents become.
import type { ChannelForm } from './field.ts';

export const linearForm: ChannelForm = {
  label: 'Linear',
  fields: [
    {
      key: 'api_key',
      label: 'API key',
      input: 'text',
      secret: true,
      hint: 'Settings → Security & access → Personal API keys (lin_api_…)',
      max: 200,
      pattern: /^lin_api_[A-Za-z0-9]+$/,
      expected: 'a personal API key starting with lin_api_',
    },
    {
      key: 'team_id',
      label: 'Team ID',
      input: 'text',
      hint: "The team's UUID (Command menu → Copy model UUID on the team)",
      max: 36,
      pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      expected: 'a team UUID such as 9cfb482a-81e3-4154-b5b9-2c805e70a02d',
    },
  ],
};
