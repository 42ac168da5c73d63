/**
 * A send's words at every instant, as one table (adr/0066): where the send stands → the
 * sentence under the review's heading and the one wait hint under its button. "Nothing has been sent yet" only while nothing has left;
 * from the first byte, one sentence that it may already have gone through; offline named
 * as offline at once. Whatever an answer said stands in the page's one alert, so a send in
 * doubt adds nothing here. A page's waiting reads take their one hint from the same table
 * (`readWaitHint`, adr/0074): offline, or the outage a read met, named before the wait's length.
 */
import type { ReadRetryCause } from '../api/resilientFetch.ts';
import { readWaitMessages, sendWordsText, waitHints } from '../messages.ts';
import type { SendPhase } from './sendState.ts';
import type { WaitPhase } from './useWaitPhase.ts';

/** Where a send stands, as its words need it. */
export type SendMoment =
  /** Nothing has left (or the last answer released the key with nothing moved by it). */
  | { kind: 'notSent' }
  /** The bank refused it: nothing moved. */
  | { kind: 'refused' }
  /** It has left and no answer has come; how long it has waited, and whether the browser is online. */
  | { kind: 'sending'; wait: WaitPhase; online: boolean }
  /** An answer (or its absence) left it in doubt: the page's alert says so, once. */
  | { kind: 'inDoubt' }
  /** Its outcome is known and shown by the receipt. */
  | { kind: 'known' };

/** What a send says: under the review's heading, and under its button. */
export interface SendWords {
  intro: string;
  hint: string;
}

/** The table: each moment's words. */
export function sendWords(moment: SendMoment): SendWords {
  switch (moment.kind) {
    case 'notSent':
      return { intro: sendWordsText.notSent, hint: '' };
    case 'refused':
      return { intro: sendWordsText.refused, hint: '' };
    case 'sending': {
      if (!moment.online) return { intro: sendWordsText.sending, hint: sendWordsText.offline };
      return { intro: sendWordsText.sending, hint: timedHint(moment.wait) };
    }
    case 'inDoubt':
    case 'known':
      return { intro: '', hint: '' };
  }
}

/** The moment of a send in `phase`, waiting `wait`, with the browser `online`. */
export function sendMoment(phase: SendPhase, wait: WaitPhase, online: boolean): SendMoment {
  switch (phase) {
    case 'idle':
      return { kind: 'notSent' };
    case 'rejected':
      return { kind: 'refused' };
    case 'pending':
      return { kind: 'sending', wait, online };
    case 'unsettled':
    case 'verifyRequired':
      return { kind: 'inDoubt' };
    case 'succeeded':
    case 'wentThrough':
    case 'confirmed':
      return { kind: 'known' };
  }
}

/** The hint of a wait that has only its length to go by. */
const timedHint = (wait: WaitPhase): string => (wait === 'quiet' ? '' : wait === 'slow' ? waitHints.slow : waitHints.still);

/** Where a page's waiting reads stand, as their one hint needs it (adr/0074). */
export interface ReadWaitMoment {
  /** The longest wait's phase. */
  wait: WaitPhase;
  online: boolean;
  /** What a waiting read met before its one retry, if it met anything. */
  outage: ReadRetryCause | null;
}

/**
 * The one hint of a page's waiting reads: offline named as offline; an outage named from
 * the first attempt that met it (the retry is still coming); else the wait's length.
 */
export function readWaitHint(moment: ReadWaitMoment): string {
  if (!moment.online) return readWaitMessages.offline;
  if (moment.outage === 'unavailable') return readWaitMessages.outageRetrying;
  if (moment.outage === 'unreachable') return readWaitMessages.unreachableRetrying;
  return timedHint(moment.wait);
}
