// Samples the resident memory of a process and all its descendants from /proc (Linux), for peak-RSS
// figures of benchmarks that run in child processes (and may start grandchildren, such as a mock).

import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of one process in bytes, or 0 when it is gone or /proc is unavailable. */
function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Parent PID of every live process (from /proc/<pid>/stat), as a map of parent to children. */
function childrenByParent(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return map;
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name in parentheses, which may itself contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(name));
      map.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  return map;
}

/** Sum of the RSS of `pid` and all its descendants, in bytes. */
export function processTreeRssBytes(pid: number): number {
  const children = childrenByParent();
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const next = stack.pop()!;
    total += rssBytes(next);
    stack.push(...(children.get(next) ?? []));
  }
  return total;
}

/**
 * Samples the process tree of `pid` every `intervalMs` (default 250 ms); `stop()` returns the peak in MiB.
 * Short spikes between samples are missed, so the figure is a lower bound of the true peak.
 */
export function sampleTreeRss(pid: number, intervalMs = 250): { stop: () => number } {
  let peak = processTreeRssBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, processTreeRssBytes(pid))), intervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(peak / 2 ** 20);
    },
  };
}
