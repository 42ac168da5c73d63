/**
 * The API's entry: the bank composed with every resilience layer (app.ts), served by
 * serveApi.ts (cluster, metrics, tracing, clean stop).
 */
import { resilienceLayers } from './app.ts';
import { serveApi } from './serveApi.ts';

serveApi(resilienceLayers);
