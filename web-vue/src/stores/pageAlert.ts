/**
 * The page's one `role="alert"` slot (adr/0009): one sentence and at most one
 * action (Retry). The layout renders the slot once, empty from the start; pages fill
 * it. After Stop or Retry, focus lands on the bar's action unless the visitor has
 * moved it since (useWaitLanding). Its tone is a problem's, unless the sentence reports
 * the visitor's own choice ("Loading stopped."): then a notice (adr/0013).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

/** How the bar looks: a problem (the default), or a notice of the visitor's own doing. */
export type AlertTone = 'problem' | 'notice';

/** The bar's button. */
export interface AlertAction {
  label: string;
  run: () => void;
}

export const usePageAlertStore = defineStore('pageAlert', () => {
  const message = ref('');
  const action = shallowRef<AlertAction | null>(null);
  const tone = ref<AlertTone>('problem');
  /** Set by arm(): where focus was when the visitor pressed Stop or Retry. */
  const landingFrom = shallowRef<Element | null | undefined>(undefined);

  /** Shows `text` (and a button), as a problem unless told it is a notice. */
  function show(text: string, next: AlertAction | null = null, as: AlertTone = 'problem'): void {
    message.value = text;
    action.value = next;
    tone.value = as;
  }

  /** Empties the bar (the region itself stays). */
  function clear(): void {
    message.value = '';
    action.value = null;
    tone.value = 'problem';
  }

  /** Remembers where focus is now, so the next action shown can take it back. */
  function arm(): void {
    landingFrom.value = typeof document === 'undefined' ? null : document.activeElement;
  }

  function disarm(): void {
    landingFrom.value = undefined;
  }

  return { message, action, tone, landingFrom, show, clear, arm, disarm };
});
