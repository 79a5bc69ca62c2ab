// Where a benchmark window's CPU went, from /proc: the machine's busy share of all its cores
// (/proc/stat) and the CPU seconds of each group of processes (/proc/PID/stat, user + system),
// sampled every half second so processes that come and go inside the window are counted too.
// It tells how much room the box had: a latency tail on a box with none left is the box's.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const TICKS = 100; // clock ticks a second in /proc (USER_HZ on Linux)
const SAMPLE_MS = 500;

export type Groups = Record<string, (pid: number, cmdline: string) => boolean>;

export interface CpuSplit {
  /** The machine's busy share of all its cores over the window, 0..1 */
  busy: number;
  cores: number;
  /** Each group's CPU over the window, in cores (1 = one core all the time) */
  groups: Record<string, number>;
  /** The threads of the process named by `threadsOf`, by name, in cores (those above 0.005) */
  threads: Record<string, number>;
  seconds: number;
}

function machineTicks(): { busy: number; all: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const all = f.reduce((a, b) => a + b, 0);
  // idle and iowait are the time no task ran
  return { busy: all - f[3] - (f[4] ?? 0), all };
}

/** User + system ticks from a process's or a thread's stat file; null when it is gone meanwhile. */
function statTicks(file: string): number | null {
  try {
    const stat = readFileSync(file, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

const procTicks = (pid: number) => statTicks(`/proc/${pid}/stat`);

function threadTicks(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const ticks = statTicks(`/proc/${pid}/task/${tid}/stat`);
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    if (ticks !== null) byName.set(name, (byName.get(name) ?? 0) + ticks);
  }
  return byName;
}

/**
 * Starts counting now; `stop()` ends the window and returns the split. With `threadsOf`, that
 * process's threads are split too, by name (MainThread, a named worker such as probe-ingest,
 * V8Worker for the garbage collector's helpers, libuv-worker for the thread pool).
 */
export function startCpuSplit(groups: Groups, threadsOf?: number): { stop(): CpuSplit } {
  const threads0 = threadsOf ? threadTicks(threadsOf) : null;
  const names = Object.keys(groups);
  const last = new Map<number, { ticks: number; group: string | null }>();
  const spent: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const groupOf = (pid: number): string | null => {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      return null;
    }
    return names.find((n) => groups[n](pid, cmdline)) ?? null;
  };
  const sample = (first: boolean) => {
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      const ticks = procTicks(pid);
      if (ticks === null) continue;
      const seen = last.get(pid);
      if (!seen) {
        const group = groupOf(pid);
        // a process born inside the window spent all its ticks inside it
        if (!first && group) spent[group] += ticks;
        last.set(pid, { ticks, group });
      } else {
        if (seen.group) spent[seen.group] += Math.max(0, ticks - seen.ticks);
        seen.ticks = ticks;
      }
    }
  };
  const t0 = Date.now();
  const m0 = machineTicks();
  sample(true);
  const timer = setInterval(() => sample(false), SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample(false);
      const m1 = machineTicks();
      const seconds = (Date.now() - t0) / 1000;
      const threads: Record<string, number> = {};
      if (threadsOf && threads0)
        for (const [name, ticks] of threadTicks(threadsOf)) {
          const cores = (ticks - (threads0.get(name) ?? 0)) / TICKS / seconds;
          if (cores >= 0.005) threads[name] = cores;
        }
      return {
        busy: (m1.busy - m0.busy) / Math.max(1, m1.all - m0.all),
        cores: os.cpus().length,
        groups: Object.fromEntries(names.map((n) => [n, spent[n] / TICKS / seconds])),
        threads,
        seconds,
      };
    },
  };
}

/** One line: the machine's busy share, then each group in cores, and what no group holds. */
export function cpuLine(s: CpuSplit): string {
  const named = Object.values(s.groups).reduce((a, b) => a + b, 0);
  const parts = Object.entries(s.groups).map(([n, c]) => `${n} ${c.toFixed(2)}`);
  parts.push(`other ${Math.max(0, s.busy * s.cores - named).toFixed(2)}`);
  const threads = Object.entries(s.threads)
    .sort((a, b) => b[1] - a[1])
    .map(([n, c]) => `${n} ${c.toFixed(2)}`);
  return [
    `  CPU                 ${(s.busy * 100).toFixed(0)} % of ${s.cores} cores busy over ${s.seconds.toFixed(0)} s, in cores: ${parts.join(', ')}`,
    ...(threads.length ? [`  platform threads    ${threads.join(', ')}`] : []),
  ].join('\n');
}
