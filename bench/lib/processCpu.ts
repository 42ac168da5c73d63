/**
 * The CPU a process has spent with all its live descendants (an API's cluster workers), or a
 * set of processes together (the PostgreSQL backends serving one API),
 * from /proc: Linux only, as the bench machine is.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** /proc/PID/stat's fields after the command's closing parenthesis. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process ended meanwhile
  }
}

/** CPU milliseconds (user + system, at the kernel's 10 ms tick) of each process in `pids` with its descendants. */
export function cpuMsOfTrees(pids: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const parent = Number(statFields(entry)?.[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree = (pid: number): number => ownTicks(pid) + (children.get(pid) ?? []).reduce((sum, child) => sum + tree(child), 0);
  return pids.map((pid) => tree(pid) * 10);
}

/** CPU milliseconds (user + system) of one process, without its descendants; a process that ended counts nothing. */
export function cpuMsOfProcess(pid: number): number {
  return ownTicks(pid) * 10;
}

/** A process's own user + system CPU in clock ticks (utime and stime); 0 once it ended. */
function ownTicks(pid: number): number {
  const fields = statFields(pid);
  return fields ? Number(fields[11]) + Number(fields[12]) : 0;
}
