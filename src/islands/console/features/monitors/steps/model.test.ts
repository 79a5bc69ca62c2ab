import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { cleanStep, exportSteps, importSteps, moveStep, newStep, stepErrorKeys, stepErrors, stepLabel, type Step } from './model.ts';

const flow: Step[] = [
  {
    name: 'Sign in',
    method: 'POST',
    url: 'http://shop.test/login',
    body: '{"u":"{{secrets.SHOP_USER}}"}',
    extract: [{ variable: 'token', source: 'json', property: '$.token' }],
  },
  {
    name: 'Cart',
    url: 'http://shop.test/cart',
    headers: { Authorization: 'Bearer {{token}}' },
    assertions: [{ source: 'json', property: '$.total', comparison: 'equals', target: '42' }],
  },
];

describe('the step editor model', () => {
  it('moves a step up and down and leaves the ends alone', () => {
    expect(moveStep(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveStep(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveStep(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveStep(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });

  it("puts the server's messages of step N on that step's fields, in either key style", () => {
    const errors = {
      'steps.1.url': 'must be an http(s) URL',
      'steps[1].assertions[0].target': 'is required',
      'steps.0.name': 'x',
      steps: 'too many',
      name: 'y',
    };
    expect(stepErrors(errors, 1)).toEqual({ url: 'must be an http(s) URL', 'assertions.0.target': 'is required' });
    expect(stepErrors({ 'steps.2': 'not a step' }, 2)).toEqual({ _: 'not a step' });
    expect(stepErrorKeys(errors, 1).sort()).toEqual(['steps.1.url', 'steps[1].assertions[0].target']);
  });

  it('sends a browser step with only the fields its action uses', () => {
    expect(cleanStep({ action: 'goto', url: 'http://a.test', selector: '#left-over', value: '', name: '' })).toEqual({
      action: 'goto',
      url: 'http://a.test',
    });
    expect(cleanStep({ action: 'assert_count', selector: '.item', count: 2, url: 'x' })).toEqual({
      action: 'assert_count',
      selector: '.item',
      count: 2,
    });
    expect(cleanStep({ name: 'a', url: 'u', headers: {}, assertions: [], body: null })).toEqual({ name: 'a', method: 'GET', url: 'u' });
  });

  it('names a step by its name, else by its action and target', () => {
    expect(stepLabel({ action: 'click', selector: 'text=Pay' }, 3)).toBe('click text=Pay');
    expect(stepLabel({ action: 'wait_for_text', value: 'Done', name: 'Paid' }, 0)).toBe('Paid');
    expect(stepLabel({ name: '', url: 'u' }, 1)).toBe('Step 2');
  });

  it('exports and imports the same steps as JSON and YAML', () => {
    for (const format of ['json', 'yaml'] as const) {
      const text = exportSteps(flow, format, (v) => stringify(v));
      const back = importSteps(text, 'api_flow', parse);
      expect(back).toEqual({ ok: true, steps: flow.map(cleanStep) });
    }
    expect(exportSteps(flow, 'json', stringify)).toContain('"{{token}}"'.slice(1, -1));
  });

  it('takes a monitors-as-code entry with a steps list', () => {
    const r = importSteps(
      'name: Shop\ntype: browser\nsteps:\n  - action: goto\n    url: http://shop.test/\n  - action: screenshot\n',
      'browser',
      parse,
    );
    expect(r).toEqual({ ok: true, steps: [{ action: 'goto', url: 'http://shop.test/' }, { action: 'screenshot' }] });
  });

  it('names what is wrong with a bad import', () => {
    const bad = (text: string, kind: 'api_flow' | 'browser' = 'api_flow') => {
      const r = importSteps(text, kind, parse);
      return r.ok ? 'ok' : r.error;
    };
    expect(bad('')).toMatch(/Paste the steps/);
    expect(bad('steps: [unclosed')).toMatch(/neither JSON nor YAML/);
    expect(bad('{"name": "x"}')).toMatch(/list of steps/);
    expect(bad('[]')).toMatch(/no steps/);
    expect(bad('- action: goto\n  url: http://a.test')).toMatch(/Step 1 has an "action": it is a browser step/);
    expect(bad('- name: a')).toMatch(/Step 1: "url" is missing/);
    expect(bad('- action: hover', 'browser')).toMatch(/Step 1: "action" must be one of/);
    expect(bad(JSON.stringify(Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, url: 'u' }))))).toMatch(
      /At most 20 steps; this holds 21/,
    );
  });

  it('starts a flow with a GET that expects 200 and a journey with a page to open', () => {
    expect(newStep('api_flow', 0)).toMatchObject({
      method: 'GET',
      assertions: [{ source: 'status', comparison: 'equals', target: '200' }],
    });
    expect(newStep('browser', 0)).toEqual({ action: 'goto', url: '' });
  });
});
