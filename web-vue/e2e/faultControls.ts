/**
 * The control server's process faults, beside its database ones (globalSetup.ts):
 *
 * - `/bff/freeze`, `/bff/thaw`: SIGSTOP / SIGCONT the BFF (it accepts connections and
 *   answers nothing: a frozen BFF, or a proxy in front of it that hangs);
 * - `/bff/stop`, `/bff/start`: the BFF down (connections refused), then a new one on the
 *   same port (its in-memory sessions are gone, as after any restart);
 * - `/api/freeze`, `/api/thaw`: the same for the API;
 * - `/lost-answer/*`: a second API and BFF on the same database for the one spec that
 *   needs an answer lost right after its COMMIT (lostAnswerStack.ts).
 *
 * Every action is a real signal to a real process; nothing here answers for the stack.
 */
import type { ChildProcess } from 'node:child_process';
import type { BffProcess } from '@tidewater/test-support/bffProcess';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { lostAnswerStack } from './lostAnswerStack.ts';

/** What the controls act on. */
export interface ControlledStack {
  api: ApiProcess;
  bff: BffProcess;
  /** Starts a BFF like the suite's, on `port`. */
  restartBff(port: number): Promise<BffProcess>;
  /** The database's port, for the lost-answer stack's trap. */
  databasePort: number;
  databaseName: string;
}

/** Sends `name` to a live child (a child that has exited is left alone: thawing a stopped BFF is a no-op). */
async function signal(child: ChildProcess, name: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(name);
}

/** The actions and the environment they add for the specs, and their teardown. */
export async function faultControls(stack: ControlledStack) {
  let bff = stack.bff;
  const lostAnswer = await lostAnswerStack(stack.databasePort, stack.databaseName);
  const actions: Record<string, () => Promise<void> | void> = {
    '/bff/freeze': () => signal(bff.child, 'SIGSTOP'),
    '/bff/thaw': () => signal(bff.child, 'SIGCONT'),
    '/bff/stop': async () => {
      await signal(bff.child, 'SIGCONT');
      await bff.stop();
    },
    '/bff/start': async () => {
      if (bff.child.exitCode === null && bff.child.signalCode === null) return;
      bff = await stack.restartBff(bff.port);
    },
    '/api/freeze': () => signal(stack.api.child, 'SIGSTOP'),
    '/api/thaw': () => signal(stack.api.child, 'SIGCONT'),
    ...lostAnswer.actions,
  };
  return {
    actions,
    env: lostAnswer.env,
    async stop(): Promise<void> {
      for (const child of [bff.child, stack.api.child]) await signal(child, 'SIGCONT');
      await lostAnswer.stop();
      if (bff !== stack.bff) await bff.stop();
    },
  };
}
