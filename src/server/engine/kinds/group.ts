// Group monitors: one component made of other monitors of the company (its children), down by
// its rule (any, all or at least N children down), degraded when some child is down or degraded
// but the rule is not met. The company's own monitors and no cycles: the monitors service checks
// both against the database (domain/monitors/links.ts); this module checks the shape.
import { GROUP_FIELDS, GROUP_MAX_CHILDREN } from '../../../lib/monitor-kinds.ts';
import { GROUP_RULES, groupChecker, type GroupConfig, type GroupRule } from '../checkers/group.ts';
import { presentFields, type Kind } from './kind.ts';

const FIELDS = GROUP_FIELDS;

export const groupKind: Kind<GroupConfig> = {
  fields: FIELDS,
  derived: true,
  validate(pick) {
    const problems: Record<string, string> = {};
    const children = [...new Set((pick('children') ?? []).map((c) => String(c).trim()).filter(Boolean))];
    if (children.length === 0) problems.children = 'A group needs at least one child monitor';
    else if (children.length > GROUP_MAX_CHILDREN) problems.children = `A group holds at most ${GROUP_MAX_CHILDREN} monitors`;
    const rule = (pick('group_rule') ?? 'any') as GroupRule;
    if (!GROUP_RULES.includes(rule)) problems.group_rule = 'Rule must be any, all or at_least';
    let minDown = pick('group_min_down') ?? null;
    if (rule === 'at_least') {
      if (minDown === null || !Number.isInteger(minDown) || minDown < 1 || (children.length > 0 && minDown > children.length))
        problems.group_min_down = `How many children down make the group down: a whole number from 1 to ${Math.max(1, children.length)}`;
    } else minDown = null;
    return { config: { children, group_rule: rule, group_min_down: minDown }, problems, target: null };
  },
  check: groupChecker,
  present: (config) => presentFields(FIELDS, config),
  publicTarget: () => null,
};
