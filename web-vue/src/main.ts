/**
 * Starts the SPA: Pinia, the request layer's hooks wired to the session store (CSRF
 * token, activity, a session that ended), the router, and the start-up session check.
 */
import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { setRequestHooks } from './api/instance.ts';
import { noteReadOutage } from './composables/readOutage.ts';
import { createAppRouter } from './router.ts';
import { useSessionStore } from './stores/session.ts';
import './styles.css';

const app = createApp(App);
app.use(createPinia());

const session = useSessionStore();
setRequestHooks({
  csrfToken: () => session.csrfToken,
  onBffAnswer: () => session.noteActivity(),
  onUnauthenticated: () => session.sessionGone(),
  onReadRetry: noteReadOutage,
});
void session.start();

app.use(createAppRouter());
app.mount('#app');
