import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { computed, effectScope, nextTick, ref, shallowRef } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import type { ReadRetryCause } from '../api/resilientFetch.ts';
import { OUTAGE, readWaitMessages, waitHints } from '../messages.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import { useReadAlert } from './useReadAlert.ts';
import type { WaitPhase } from './useWaitPhase.ts';

const outage: ApiProblem = { code: 'SERVICE_UNAVAILABLE', status: 503 } as ApiProblem;

/** A read whose phase the test sets and whose runs answer `answers` in turn. */
function scriptedRead(answers: Array<Result<unknown>> = []) {
  const problem = shallowRef<ApiProblem | null>(null);
  const pending = ref(false);
  const phase = ref<WaitPhase>('quiet');
  const outage = ref<ReadRetryCause | null>(null);
  const shownHint = ref<'' | typeof waitHints.loaded>('');
  async function run(): Promise<Result<unknown>> {
    pending.value = true;
    problem.value = null;
    await Promise.resolve();
    const answer = answers.shift() ?? { data: 'loaded' };
    pending.value = false;
    phase.value = 'quiet';
    if (answer.error) problem.value = answer.error;
    return answer;
  }
  return { problem, pending, phase, outage, hint: computed(() => shownHint.value), run, stop: () => undefined };
}

/** Lets every queued promise and Vue watcher settle. */
async function settled(): Promise<void> {
  for (let i = 0; i < 5; i++) await nextTick();
}

beforeEach(() => {
  setActivePinia(createPinia());
  document.body.innerHTML = '<main><h1 tabindex="-1">Everyday</h1><a href="/deposit" data-retry-landing>Deposit</a><button id="retry">Retry</button><a href="/elsewhere" id="elsewhere">Elsewhere</a></main>';
});

describe('useReadAlert: one wait for the page, however many reads wait', () => {
  const cases: Array<[string, { phases: Array<WaitPhase | 'done'>; hint: string; canStop: boolean; met?: ReadRetryCause }]> = [
    ['three reads still waiting: one "Still trying…"', { phases: ['still', 'still', 'still'], hint: waitHints.still, canStop: true }],
    ['a read that met a 503 names the outage, whatever the wait (adr/0074)', { phases: ['slow', 'still', 'done'], hint: readWaitMessages.outageRetrying, canStop: true, met: 'unavailable' }],
    ['a read that made no connection says so', { phases: ['quiet', 'done'], hint: readWaitMessages.unreachableRetrying, canStop: false, met: 'unreachable' }],
    ['one slow, one quiet: the longest wait speaks', { phases: ['slow', 'quiet', 'done'], hint: waitHints.slow, canStop: false }],
    ['one still, one slow: "Still trying…", and Stop', { phases: ['slow', 'still', 'done'], hint: waitHints.still, canStop: true }],
    ['all quiet: nothing yet', { phases: ['quiet', 'quiet', 'done'], hint: '', canStop: false }],
  ];
  it.each(cases)('%s', (_name, { phases, hint, canStop, met }) => {
    const reads = phases.map((phase) => {
      const read = scriptedRead();
      read.pending.value = phase !== 'done';
      read.phase.value = phase === 'done' ? 'quiet' : phase;
      return read;
    });
    if (met) reads[0]!.outage.value = met;
    const wait = effectScope().run(() => useReadAlert(reads))!;
    expect(wait.hint.value).toBe(hint);
    expect(wait.canStop.value).toBe(canStop);
  });
});

describe('useReadAlert: after Retry', () => {
  it('a Retry that loads everything says "Loaded." and lands focus on the page\'s first action', async () => {
    const account = scriptedRead([{ error: outage }, { data: 'account' }]);
    const movements = scriptedRead([{ error: outage }, { data: [] }]);
    const wait = effectScope().run(() => useReadAlert([account, movements]))!;
    await Promise.all([account.run(), movements.run()]);
    await settled();
    const alert = usePageAlertStore();
    expect(alert.message).toBe(OUTAGE);
    document.getElementById('retry')!.focus();

    alert.action!.run();
    await settled();
    expect(alert.message).toBe('');
    expect(document.activeElement?.textContent).toBe('Deposit');
    expect(wait.hint.value).toBe(waitHints.loaded);
    expect(wait.hintIsUnseen.value).toBe(true);
  });

  it('a Retry that loads leaves focus where the visitor moved it meanwhile', async () => {
    const account = scriptedRead([{ error: outage }, { data: 'account' }]);
    effectScope().run(() => useReadAlert([account]));
    await account.run();
    await settled();
    const alert = usePageAlertStore();
    document.getElementById('retry')!.focus();
    alert.action!.run();
    document.getElementById('elsewhere')!.focus();
    await settled();
    expect(document.activeElement?.id).toBe('elsewhere');
  });

  it('a Retry that fails again shows the problem again and says nothing loaded', async () => {
    const account = scriptedRead([{ error: outage }, { error: outage }]);
    const wait = effectScope().run(() => useReadAlert([account]))!;
    await account.run();
    await settled();
    const alert = usePageAlertStore();
    alert.action!.run();
    await settled();
    expect(alert.message).toBe(OUTAGE);
    expect(wait.hint.value).toBe('');
  });
});

describe('useReadAlert: offline (adr/0074)', () => {
  /** Sets what the browser says about its connection, and tells the page as the browser does. */
  function goOnline(online: boolean): void {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  }

  it('a read that failed offline says so, and runs again by itself once back, leaving focus alone', async () => {
    const connectionLost: ApiProblem = { code: 'CONNECTION_FAILED', status: null } as ApiProblem;
    const account = scriptedRead([{ error: connectionLost }, { data: 'account' }]);
    goOnline(false);
    try {
      const wait = effectScope().run(() => useReadAlert([account]))!;
      await account.run();
      await settled();
      const alert = usePageAlertStore();
      expect(alert.message).toBe(readWaitMessages.offline);
      document.getElementById('elsewhere')!.focus();

      goOnline(true);
      await settled();
      expect(alert.message).toBe('');
      expect(account.problem.value).toBeNull();
      expect(wait.hint.value).toBe(waitHints.loaded);
      expect(document.activeElement?.id).toBe('elsewhere');
    } finally {
      goOnline(true);
    }
  });
});
