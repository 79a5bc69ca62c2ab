// CPU and memory of this process's descendants (the browser checks' Chromium: its browser,
// renderer, GPU and utility processes), read from /proc: Chromium's processes live until the
// browser closes, so the waited-children counters (cutime) would miss them. Linux only.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Proc {
  pid: number;
  ppid: number;
  /** user + system CPU, ms */
  cpuMs: number;
  /** resident set, bytes */
  rss: number;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command may hold spaces and parentheses: the fields start after the last ") "
    const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, rss (pages) 24
    return { pid, ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS, rss: Number(f[21]) * 4096 };
  } catch {
    return null; // ended between the listing and the read
  }
}

/** Every live descendant of `root` (not root itself). */
export function descendants(root = process.pid): Proc[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== null);
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: Proc[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c.pid);
    }
  };
  walk(root);
  return out;
}

/**
 * Samples the descendants every `everyMs` until stopped: the CPU they used in between (processes
 * that ended between two samples lose their last share: a sample every 100 ms keeps that small)
 * and the peak of their summed RSS.
 */
export function sampleDescendants(everyMs = 100): { stop(): { cpuMs: number; peakRss: number } } {
  const last = new Map<number, number>();
  for (const p of descendants()) last.set(p.pid, p.cpuMs);
  let cpuMs = 0;
  let peakRss = 0;
  const sample = () => {
    const now = descendants();
    let rss = 0;
    for (const p of now) {
      cpuMs += p.cpuMs - (last.get(p.pid) ?? 0);
      last.set(p.pid, p.cpuMs);
      rss += p.rss;
    }
    peakRss = Math.max(peakRss, rss);
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { cpuMs, peakRss };
    },
  };
}
