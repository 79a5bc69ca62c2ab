// The http kind's response-header assertions and regular-expression keyword (present or absent)
// against the loopback HTTP targets, including a pattern that would backtrack forever in
// JavaScript's engine, run on 900 KB of body within the check (RE2JS is linear).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpKind } from '../../../../src/server/engine/kinds/http.ts';
import { startHttpTargets, type HttpTargets } from '../../../fixtures/targets/http-targets.ts';
import { checkKind } from './support.ts';

describe('http header assertions and regex keywords against loopback', () => {
  let http: HttpTargets;
  beforeAll(async () => {
    http = await startHttpTargets();
  });
  afterAll(async () => {
    await http?.close();
  });

  const check = (path: string, extra: Record<string, unknown>) => checkKind('http', { url: http.url(path), ...extra }, { timeoutMs: 2000 });

  it('passes when each asserted header is present and contains its text or matches its /regex/', async () => {
    const r = await check('/json', { header_assertions: { 'Content-Type': 'json', 'content-length': '', Date: '/^\\w{3}, \\d{2} /' } });
    expect(r).toMatchObject({ status: 'operational', error: null });
  });

  it('is down naming the header that is missing or does not match, never quoting its value', async () => {
    expect(await check('/json', { header_assertions: { 'X-Cache': '' } })).toMatchObject({
      status: 'down',
      error: 'Header "X-Cache" is missing',
    });
    expect(await check('/json', { header_assertions: { 'Content-Type': 'text/html' } })).toMatchObject({
      status: 'down',
      error: 'Header "Content-Type" does not match "text/html"',
    });
    expect(await check('/json', { header_assertions: { 'Content-Type': '/^text\\//' } })).toMatchObject({
      status: 'down',
      error: 'Header "Content-Type" does not match /^text\\//',
    });
  });

  it('finds a regex keyword present or absent', async () => {
    expect(await check('/ok', { keyword: 'hello\\s+status\\w+', keyword_regex: true })).toMatchObject({ status: 'operational' });
    expect(await check('/ok', { keyword: 'error \\d{3}', keyword_regex: true })).toMatchObject({
      status: 'down',
      error: 'Keyword "error \\d{3}" not found',
    });
    expect(await check('/ok', { keyword: 'stat.s', keyword_regex: true, keyword_mode: 'absent' })).toMatchObject({
      status: 'down',
      error: 'Keyword "stat.s" is present',
    });
    expect(await check('/ok', { keyword: 'exception|fatal', keyword_regex: true, keyword_mode: 'absent' })).toMatchObject({
      status: 'operational',
    });
    // Without keyword_regex the same text is plain: "stat.s" is not in the body.
    expect(await check('/ok', { keyword: 'stat.s', keyword_mode: 'absent' })).toMatchObject({ status: 'operational' });
  });

  it('runs a catastrophic-backtracking pattern on a 900 KB body within the check', async () => {
    const started = performance.now();
    const r = await check('/big-json', { keyword: '(x+x+)+y', keyword_regex: true });
    expect(r).toMatchObject({ status: 'down', error: 'Keyword "(x+x+)+y" not found' });
    // unguarded, this pattern runs for minutes on such a body; the room is for a loaded machine
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('validates patterns and header names with per-field texts', () => {
    const v = (input: Record<string, unknown>) => httpKind.validate((k) => input[k as string] as never, { allowPrivate: true }).problems;
    const url = 'https://example.com/';
    expect(v({ url, keyword: '(?<=a)b', keyword_regex: true }).keyword).toMatch(/^Keyword is not a valid regular expression/);
    expect(v({ url, keyword: '(?<=a)b' })).toEqual({});
    expect(v({ url, header_assertions: { 'Bad Name': 'x' } })).toEqual({
      header_assertions: 'Header assertion "Bad Name" is not a header name',
    });
    expect(v({ url, header_assertions: { 'X-A': '/(/' } }).header_assertions).toMatch(
      /^Header assertion "X-A": the pattern is not a valid regular expression/,
    );
    expect(v({ url, header_assertions: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, ''])) })).toEqual({
      header_assertions: 'At most 20 header assertions',
    });
  });
});
