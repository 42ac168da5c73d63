/**
 * A send's words at every instant, as one table (adr/0066): where the send stands → the
 * sentence under the review's heading and the one wait hint under its button. "Nothing has been sent yet" only while nothing has left;
 * from the first byte, one sentence that it may already have gone through; offline named
 * as offline at once. Whatever an answer said stands in the page's one alert, so a send in
 * doubt adds nothing here.
 */
import { sendWordsText, waitHints } from '../messages.ts';
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
      const hint = moment.wait === 'quiet' ? '' : moment.wait === 'slow' ? waitHints.slow : waitHints.still;
      return { intro: sendWordsText.sending, hint };
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
