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
  const tree = (pid: number): number => {
    const fields = statFields(pid);
    const own = fields ? Number(fields[11]) + Number(fields[12]) : 0;
    return own + (children.get(pid) ?? []).reduce((sum, child) => sum + tree(child), 0);
  };
  return pids.map((pid) => tree(pid) * 10);
}

/** CPU milliseconds (user + system) of the processes in `pids` together, without descendants; a process that ended counts nothing. */
export function cpuMsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}
