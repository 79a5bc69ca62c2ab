// Group checks: no network, the group's status from its children's confirmed statuses. Down when
// its rule is met (any child down, all of them, or at least N); degraded when some child is down
// or degraded but the rule is not met; operational otherwise. Paused and archived children count
// neither way; a group with no active child is operational (nothing of it is failing).
import { GROUP_RULES } from '../../../lib/monitor-kinds.ts';
import { failed, round, type Checker, type MemberStatus } from './types.ts';

export { GROUP_RULES };
export type GroupRule = (typeof GROUP_RULES)[number];

/** What a group monitor stores (engine/kinds/group.ts validates it). */
export interface GroupConfig {
  children?: string[];
  group_rule?: GroupRule;
  /** at_least: how many children down make the group down */
  group_min_down?: number | null;
}

/** The group's verdict from its children (pure: table-tested). */
export function groupVerdict(
  cfg: GroupConfig,
  members: readonly MemberStatus[],
): { status: 'operational' | 'degraded' | 'down'; error: string | null } {
  const active = members.filter((m) => !m.inactive);
  const down = active.filter((m) => m.status === 'down');
  const degraded = active.filter((m) => m.status === 'degraded');
  const rule = cfg.group_rule ?? 'any';
  const need = rule === 'any' ? 1 : rule === 'all' ? active.length : Math.max(1, cfg.group_min_down ?? 1);
  const names = (ms: MemberStatus[]) =>
    ms
      .map((m) => m.name)
      .slice(0, 5)
      .join(', ') + (ms.length > 5 ? ` and ${ms.length - 5} more` : '');
  if (active.length > 0 && down.length >= need) return { status: 'down', error: `${down.length} of ${active.length} down: ${names(down)}` };
  if (down.length > 0) return { status: 'degraded', error: `${down.length} of ${active.length} down: ${names(down)}` };
  if (degraded.length > 0) return { status: 'degraded', error: `${degraded.length} of ${active.length} degraded: ${names(degraded)}` };
  return { status: 'operational', error: null };
}

export const groupChecker: Checker<GroupConfig> = async (target, env) => {
  const started = performance.now();
  if (!env.memberStatuses) return failed('A group is computed by the platform, not by a probe');
  const ids = target.config.children ?? [];
  const members = await env.memberStatuses(ids);
  const verdict = groupVerdict(target.config, members);
  const total = round(performance.now() - started);
  return { ...verdict, responseTimeMs: null, httpCode: null, timings: { total }, certExpiresAt: null };
};
