/**
 * One request's deadline (adr/0006): one AbortSignal that the
 * deadline or the client hanging up fires. The commit gate disarms it atomically when a
 * COMMIT starts (nothing cancels a commit that started) and re-arms it at its original
 * instant when the commit fails.
 *
 * Operations marked `x-no-deadline` (refresh, revoke, logout) are exempt from the
 * hang-up: a client that leaves does not take back their work (a refused refresh's
 * record stays). The clock still bounds them at the same deadline, because without it a
 * hung database would hold them past the BFF's 55 s (5 logins × 10 s + 7.5 s of retry
 * waits = 57.5 s at the defaults; adr/0006).
 */
import { DeadlineExceeded } from './deadlineExceeded.ts';

/** Why a request's signal fired. */
class ClientHungUp extends Error {
  constructor() {
    super('the client closed the request');
    this.name = 'ClientHungUp';
  }
}

/** Told at the deadline's instant instead of the signal firing, while it holds the deadline (the commit gate's statement that is its own commit). */
export interface OwnCommitHolder {
  atDeadline(): void;
}

/** Told right after a request's signal fires (the data layer's connections: cancellableClient.ts). */
export interface Cancellable {
  cancelOnFire(signal: AbortSignal): void;
}

/** The deadline of one request; every method is synchronous, so each is atomic. */
export class RequestDeadline {
  private readonly controller = new AbortController();
  /**
   * Fires when the deadline passes or the client hangs up (unless disarmed or exempt).
   * The controller's signal, read once: every statement asks for it, and AbortController's
   * getters check their receiver on each call (as AbortSignal's `aborted` does: `fired`).
   */
  readonly signal: AbortSignal = this.controller.signal;
  /** Whether the signal fired: the same as `signal.aborted`, a plain field. */
  private fired = false;
  private timer: NodeJS.Timeout | undefined;
  private expiresAt: number | undefined;
  private deadlineMs = 0;
  private disarmed = false;
  private hangUpIgnored = false;
  private clientGone = false;
  /**
   * What to cancel when the signal fires: a plain set, told in `fire`, where an abort
   * listener per request cost a few microseconds on every money send (adr/0030).
   */
  private cancellables: Set<Cancellable> | undefined;
  /**
   * While a statement that is its own commit runs (`holdForOwnCommit`): the deadline's timer,
   * kept apart so that nothing but the statement's answer clears it, and what it calls.
   */
  private heldTimer: NodeJS.Timeout | undefined;
  private holder: OwnCommitHolder | undefined;

  /** Milliseconds until the deadline (negative once past); undefined before it is armed. */
  get remainingMs(): number | undefined {
    return this.expiresAt === undefined ? undefined : this.expiresAt - Date.now();
  }

  /** True while a commit or a result holds the deadline off. */
  get isDisarmed(): boolean {
    return this.disarmed;
  }

  /** `item.cancelOnFire(signal)` runs right after the signal fires, once; never after it fired. */
  cancelOnFire(item: Cancellable): void {
    if (this.fired) return;
    (this.cancellables ??= new Set()).add(item);
  }

  /** Starts the clock: the signal fires `ms` from now. */
  arm(ms: number): void {
    this.deadlineMs = ms;
    this.expiresAt = Date.now() + ms;
    this.schedule();
  }

  /** Marks the operation exempt (`x-no-deadline`): a hang-up does not fire its signal. */
  ignoreClientHangUp(): void {
    this.hangUpIgnored = true;
  }

  /** The client hung up: fire now, unless exempt or a commit has disarmed us. */
  onClientGone(): void {
    this.clientGone = true;
    if (!this.hangUpIgnored && !this.disarmed) this.fire(new ClientHungUp());
  }

  /**
   * The commit gate: refuse (false) when the signal already fired, else disarm (true) so
   * nothing fires while the commit runs. Synchronous, so check and disarm are one step.
   */
  disarmForCommit(): boolean {
    if (this.fired) return false;
    this.disarmed = true;
    this.clear();
    return true;
  }

  /**
   * The commit gate's statement that is its own commit (adr/0027): refuse when the signal
   * fired, else disarm as for a COMMIT, but let the deadline's own timer, when it
   * still runs, call `holder.atDeadline()` at its instant instead of firing the signal (the gate
   * then cancels the statement at the database). Answers 'held' when it will, 'disarmed'
   * when no timer runs (not armed, or a commit disarmed it earlier): the caller times the
   * statement itself then. One timer per request: a second per statement, its duration
   * different every time, made a timer list of its own on every money send (adr/0035).
   * `endOwnCommit()` ends the hold, whatever the statement answered; `dispose()` does not.
   * Only the caller answered 'held' ends it: a second statement while one holds is answered
   * 'disarmed' and times itself.
   */
  holdForOwnCommit(holder: OwnCommitHolder): 'refused' | 'held' | 'disarmed' {
    if (this.fired) return 'refused';
    this.disarmed = true;
    if (this.timer === undefined) return 'disarmed';
    this.heldTimer = this.timer;
    this.timer = undefined;
    this.holder = holder;
    return 'held';
  }

  /** The statement that held the deadline answered: its instant calls nothing any more. */
  endOwnCommit(): void {
    if (this.heldTimer === undefined) return;
    clearTimeout(this.heldTimer);
    this.heldTimer = undefined;
    this.holder = undefined;
  }

  /** A commit failed: arm again at the original instant (firing now if it has passed). */
  rearmAfterFailedCommit(): void {
    if (!this.disarmed) return;
    this.disarmed = false;
    if (this.clientGone && !this.hangUpIgnored) return this.fire(new ClientHungUp());
    this.schedule();
  }

  /** The result filter: a result exists and is being written; nothing may cut it now. */
  disarmForResult(): void {
    this.disarmed = true;
    this.clear();
  }

  /** Ends the request's timer (called when the response finishes); a held statement keeps its own until it answers. */
  dispose(): void {
    this.clear();
  }

  private schedule(): void {
    this.clear();
    if (this.expiresAt === undefined || this.disarmed) return;
    const remaining = this.expiresAt - Date.now();
    if (remaining <= 0) return this.fire(new DeadlineExceeded(this.deadlineMs));
    this.timer = setTimeout(() => this.expire(), remaining);
  }

  /** The deadline's instant: a held statement's cancel (`holdForOwnCommit`), and the signal unless disarmed. */
  private expire(): void {
    const holder = this.holder;
    if (holder === undefined) this.timer = undefined;
    else {
      this.heldTimer = undefined;
      this.holder = undefined;
      holder.atDeadline();
    }
    if (!this.disarmed) this.fire(new DeadlineExceeded(this.deadlineMs));
  }

  private fire(reason: Error): void {
    this.clear();
    if (this.fired) return;
    this.fired = true;
    this.controller.abort(reason);
    const items = this.cancellables;
    this.cancellables = undefined;
    if (items) for (const item of items) item.cancelOnFire(this.signal);
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
