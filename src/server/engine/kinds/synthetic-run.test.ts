// Filled templates stay one value where they land: JSON strings escaped, URL paths and queries
// percent-encoded, the start of a URL and plain text as they are.
import { describe, expect, it } from 'vitest';
import { expandTemplate, TemplateError } from './synthetic-run.ts';

const vars = { v: 'a"b\\c&d=/e', url: 'https://next.example/page?x=1', n: '42' };

describe('expandTemplate', () => {
  it.each([
    ['text', 'Bearer {{v}}', 'Bearer a"b\\c&d=/e'],
    ['json', '{"name":"{{v}}","n":{{n}}}', '{"name":"a\\"b\\\\c&d=/e","n":42}'],
    ['json', '{"s":"x\\"{{n}}"}', '{"s":"x\\"42"}'],
    ['url', 'https://api.example/users/{{v}}?q={{v}}', 'https://api.example/users/a%22b%5Cc%26d%3D%2Fe?q=a%22b%5Cc%26d%3D%2Fe'],
    ['url', '{{url}}', 'https://next.example/page?x=1'],
    ['url', 'https://{{n}}.example/', 'https://42.example/'],
  ] as const)('in %s: %s', (context, template, expected) => {
    expect(expandTemplate(template, vars, {}, context)).toBe(expected);
  });

  it('keeps a JSON body valid whatever the value', () => {
    const body = expandTemplate('{"a":"{{v}}"}', vars, {}, 'json');
    expect(JSON.parse(body)).toEqual({ a: vars.v });
  });

  it('names a variable with no value and a secret not defined', () => {
    expect(() => expandTemplate('{{nope}}', vars, {})).toThrow(new TemplateError('variable nope has no value yet'));
    expect(() => expandTemplate('{{secrets.KEY}}', vars, {})).toThrow(new TemplateError('secret KEY is not defined'));
  });
});
