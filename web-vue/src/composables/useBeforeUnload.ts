/**
 * Asks the browser to confirm leaving while `active` (a money send is pending or holds
 * its key): the send's record outlives the page (adr/0051), but the page's own words and
 * form do not. The browser shows its own words.
 */
import { onScopeDispose, watch, type Ref } from 'vue';

/** Registers a beforeunload guard for as long as `active` is true. */
export function useBeforeUnload(active: Ref<boolean>): void {
  const ask = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    event.returnValue = '';
  };
  const stopWatching = watch(
    active,
    (isActive) => {
      if (isActive) window.addEventListener('beforeunload', ask);
      else window.removeEventListener('beforeunload', ask);
    },
    { immediate: true },
  );
  onScopeDispose(() => {
    stopWatching();
    window.removeEventListener('beforeunload', ask);
  });
}
