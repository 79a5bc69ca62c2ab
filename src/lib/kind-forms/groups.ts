// The console's fields of the domain and group kinds (issue 28). A group's `children` and every
// monitor's `parents` are chosen from the company's monitors with checkboxes, drawn by hand in
// the monitor dialog (features/monitors/MonitorLinks.tsx), so they are not declared here.
import { DEFAULT_DOMAIN_WARNING_DAYS, GROUP_RULES } from '../monitor-kinds.ts';
import type { KindFieldSpecs } from './field.ts';

export const GROUP_KIND_FIELDS = {
  domain: {
    label: 'Domain',
    input: 'text',
    required: true,
    placeholder: 'example.com',
    hint: 'Any registered domain: its registry’s public data (RDAP) is read, no proof of control needed',
  },
  domain_warning_days: {
    label: 'Warn days before expiry',
    input: 'numbers',
    default: DEFAULT_DOMAIN_WARNING_DAYS.join(', '),
    hint: 'Comma-separated days; one warning at each',
  },
  group_rule: {
    label: 'Down when',
    input: 'select',
    options: GROUP_RULES,
    default: 'any',
    hint: 'any: one child down; all: every child down; at_least: the number below. Degraded otherwise while a child is down or degraded.',
  },
  group_min_down: {
    label: 'Children down for the group to be down',
    input: 'number',
    hint: 'With at_least only',
  },
} satisfies KindFieldSpecs;
