/**
 * Whether the browser says it is online (`navigator.onLine` and its `online`/`offline`
 * events): an offline browser is named as offline at once, not as a slow bank (adr/0066).
 */
import { onScopeDispose, ref } from 'vue';

/** A ref that follows the browser's online state for the caller's scope. */
export function useOnline() {
  const online = ref(typeof navigator === 'undefined' ? true : navigator.onLine);
  if (typeof window === 'undefined') return online;
  const follow = () => (online.value = navigator.onLine);
  window.addEventListener('online', follow);
  window.addEventListener('offline', follow);
  onScopeDispose(() => {
    window.removeEventListener('online', follow);
    window.removeEventListener('offline', follow);
  });
  return online;
}
