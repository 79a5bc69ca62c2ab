// Saved API answers as curl leaves them: pages back to back (with or without whitespace between
// them), brackets and quotes inside strings, a JSON array of answers, and a broken page named.
import { describe, expect, it } from 'vitest';
import { jsonDocuments, savedAnswers } from './json-documents.ts';

describe('saved API answers', () => {
  it('reads pages appended one after another', () => {
    expect(jsonDocuments('{"data":[1]}\n{"data":[2]}')).toEqual([{ data: [1] }, { data: [2] }]);
    expect(jsonDocuments('{"a":1}{"b":2}')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(jsonDocuments('  \n')).toEqual([]);
  });

  it('does not count brackets or escaped quotes inside strings', () => {
    const text = '{"name":"a } b { \\" ]"}\n{"x":"[["}';
    expect(jsonDocuments(text)).toEqual([{ name: 'a } b { " ]' }, { x: '[[' }]);
  });

  it('names the document that is broken', () => {
    expect(() => jsonDocuments('{"ok":true}\n{"stat": "ok", "monitors": [')).toThrow(/^document 2: /);
  });

  it('an array stands for the answers it lists (jq -s)', () => {
    expect(savedAnswers('[{"stat":"ok"},{"stat":"ok","monitors":[]}]\n{"stat":"ok"}')).toEqual([
      { stat: 'ok' },
      { stat: 'ok', monitors: [] },
      { stat: 'ok' },
    ]);
  });
});
