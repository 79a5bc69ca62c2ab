// A browser journey's steps as stored (BrowserStep of openapi/schemas/synthetic.yaml): declarative
// actions only, never code a tenant's page or text can turn into something the platform runs.

import type { BROWSER_ACTIONS } from '../../../../lib/monitor-kinds.ts';

export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

export interface BrowserStep {
  action: BrowserAction;
  name?: string | null;
  url?: string | null;
  selector?: string | null;
  value?: string | null;
  count?: number | null;
}

/** The step's name as results show it: its own, else described from the action. */
export function stepName(step: BrowserStep): string {
  if (step.name) return step.name;
  const sel = step.selector ? ` ${step.selector}` : '';
  switch (step.action) {
    case 'goto':
      return `Go to ${step.url ?? ''}`;
    case 'click':
      return `Click${sel}`;
    case 'fill':
      return `Fill${sel}`;
    case 'select':
      return `Select in${sel}`;
    case 'press':
      return `Press ${step.value ?? ''}`;
    case 'wait_for_text':
      return `Wait for "${step.value ?? ''}"`;
    case 'wait_for_selector':
      return `Wait for${sel}`;
    case 'assert_text':
      return `Text "${step.value ?? ''}"${step.selector ? ` in ${step.selector}` : ''}`;
    case 'assert_url':
      return `URL ${step.value ?? ''}`;
    case 'assert_title':
      return `Title ${step.value ?? ''}`;
    case 'assert_count':
      return `${step.count ?? 0} ×${sel}`;
    case 'screenshot':
      return 'Screenshot';
  }
}

/** Which fields each action needs (validation and the docs read this). */
export const NEEDS: Record<BrowserAction, ReadonlyArray<'url' | 'selector' | 'value' | 'count'>> = {
  goto: ['url'],
  click: ['selector'],
  fill: ['selector', 'value'],
  select: ['selector', 'value'],
  press: ['value'],
  wait_for_text: ['value'],
  wait_for_selector: ['selector'],
  assert_text: ['value'],
  assert_url: ['value'],
  assert_title: ['value'],
  assert_count: ['selector', 'count'],
  screenshot: [],
};
