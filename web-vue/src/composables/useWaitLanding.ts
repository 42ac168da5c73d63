/**
 * Brings focus back to where the visitor can act after Stop or Retry (adr/0009):
 * when the alert's action appears, it takes focus if focus is still where the visitor
 * left it (the button they pressed) or was lost with it (body), and never when they
 * have moved it elsewhere since.
 */
import { nextTick, watch, type Ref } from 'vue';
import { usePageAlertStore } from '../stores/pageAlert.ts';

/** True when focus has not been moved by the visitor since `armedAt`. */
export function focusIsUnmoved(armedAt: Element | null, active: Element | null, body: Element | null): boolean {
  return active === null || active === body || active === armedAt || (armedAt !== null && !armedAt.isConnected && active === body);
}

/** Watches `target` (the alert's action) and lands focus on it when the page armed a landing. */
export function useWaitLanding(target: Ref<HTMLElement | null>): void {
  const alert = usePageAlertStore();
  watch(
    [target, () => alert.action],
    async ([element]) => {
      if (!element || alert.landingFrom === undefined) return;
      await nextTick();
      if (focusIsUnmoved(alert.landingFrom, document.activeElement, document.body)) element.focus();
      alert.disarm();
    },
    { flush: 'post' },
  );
}
