/**
 * A confirmation said on the page the visitor lands on after a change that leaves its own
 * page (closing an account returns to the dashboard): that page says it in its status region,
 * once (adr/0050).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';

export const useConfirmationStore = defineStore('confirmation', () => {
  const waiting = ref('');

  /** Keeps `text` for the next page that takes it. */
  function sayNext(text: string): void {
    waiting.value = text;
  }

  /** The confirmation waiting, once: it is forgotten as it is taken. */
  function take(): string {
    const text = waiting.value;
    waiting.value = '';
    return text;
  }

  return { sayNext, take };
});
