/**
 * The tab's title, from one place (WCAG 2.4.2): the start-up page's and "Temporarily
 * unavailable"'s own while App.vue shows them, else the route's. The router sets no title:
 * it used to name the route the guard let through while "Temporarily unavailable" was on
 * screen ("Your accounts · Tidewater").
 */
import { computed, watchEffect, type Ref } from 'vue';
import { useRoute } from 'vue-router';
import { sessionMessages } from '../messages.ts';

/** What App.vue shows instead of a route. */
export type ShellPage = 'startUp' | 'unavailable' | null;

/** Keeps document.title in step with `shown` and the route. */
export function useDocumentTitle(shown: Ref<ShellPage>): void {
  const route = useRoute();
  const title = computed(() => {
    if (shown.value === 'unavailable') return sessionMessages.unavailableTitle;
    if (shown.value === 'startUp') return sessionMessages.startUpTitle;
    return route.meta.title;
  });
  watchEffect(() => (document.title = `${title.value} · Tidewater`));
}
