/**
 * The page's one `role="alert"` slot (ADR decision 6): one sentence and at most one
 * action (Retry). The layout renders the slot once, empty from the start; pages fill
 * it. After Stop or Retry, focus lands on the bar's action unless the visitor has
 * moved it since (useWaitLanding).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

/** The bar's button. */
export interface AlertAction {
  label: string;
  run: () => void;
}

export const usePageAlertStore = defineStore('pageAlert', () => {
  const message = ref('');
  const action = shallowRef<AlertAction | null>(null);
  /** Set by arm(): where focus was when the visitor pressed Stop or Retry. */
  const landingFrom = shallowRef<Element | null | undefined>(undefined);

  /** Shows `text` (and a button). */
  function show(text: string, next: AlertAction | null = null): void {
    message.value = text;
    action.value = next;
  }

  /** Empties the bar (the region itself stays). */
  function clear(): void {
    message.value = '';
    action.value = null;
  }

  /** Remembers where focus is now, so the next action shown can take it back. */
  function arm(): void {
    landingFrom.value = typeof document === 'undefined' ? null : document.activeElement;
  }

  function disarm(): void {
    landingFrom.value = undefined;
  }

  return { message, action, landingFrom, show, clear, arm, disarm };
});
