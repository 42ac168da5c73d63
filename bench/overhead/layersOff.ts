/** Starts the overhead scenario's layers-off API (layersOffApi.ts) as a child process, as startApi starts main.ts. */
import { fileURLToPath } from 'node:url';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';

const entry = fileURLToPath(new URL('./layersOffApi.ts', import.meta.url));

/** The layers-off API with `env` added to this process's environment. */
export function startLayersOffApi(env: Record<string, string>): Promise<ApiProcess> {
  return startApi(env, undefined, entry);
}
