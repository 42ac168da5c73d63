/**
 * Turns OpenTelemetry export on when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. The SDK is imported only then (adr/0018).
 */

/** The part of a logger this needs (pino's). */
interface InfoLogger {
  info(fields: object, message: string): void;
}

/** Starts span export when asked; resolves to what flushes and stops it (nothing to do when off). */
export async function startTracing(serviceName: string, logger: InfoLogger, env: NodeJS.ProcessEnv = process.env): Promise<() => Promise<void>> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return async () => undefined;
  const { startOtel } = await import('../otel.ts');
  const stop = startOtel(serviceName);
  logger.info({ endpoint, serviceName }, 'exporting spans (OTLP/HTTP)');
  return stop;
}
