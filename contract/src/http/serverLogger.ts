/**
 * The API's and the BFF's logger (adr/0053): pino's JSON lines for whatever reads them (a
 * pipe, a file, a container's log driver, the tests), and the same lines made readable by
 * pino-pretty when stdout is a terminal, as under `npm start`. LOG_FORMAT=json or pretty
 * overrides the guess.
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

/** How the lines are written. */
export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT when it names one, else pretty on a terminal and JSON anywhere else. */
export function logFormat(env: NodeJS.ProcessEnv, stdoutIsTerminal: boolean): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return stdoutIsTerminal ? 'pretty' : 'json';
}

/** The logger of `service` at LOG_LEVEL (info), its lines carrying `base`. */
export function serverLogger(service: string, base: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = process.env): Logger {
  const options = { level: env.LOG_LEVEL ?? 'info', base: { service, ...base } };
  if (logFormat(env, process.stdout.isTTY === true) === 'json') return pino(options);
  // In this thread and synchronous: a fatal line written just before process.exit is not lost.
  return pino(options, pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service', messageFormat: '{service}: {msg}' }));
}
