/**
 * Optional OpenTelemetry export (adr/0018): when OTEL_EXPORTER_OTLP_ENDPOINT is set, the
 * API and the BFF record each request's span with the official SDK and send it over
 * OTLP/HTTP (JSON) to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces` (the exporter reads the
 * standard OTEL_* variables: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, _HEADERS, OTEL_BSP_*,
 * OTEL_SERVICE_NAME). Unset, this module is never loaded (http/tracing.ts imports it
 * dynamically), so the SDK costs nothing.
 *
 * The span is ours, not an auto-instrumentation's: the trace id and span id it gets are
 * the ones the request logs as `traceId` and forwards in `traceparent`
 * (http/traceContext.ts), so a log line, an X-Trace-Id and a trace in the backend agree.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { newSpanId, newTraceId, useSpanStarter } from './http/traceContext.ts';

/** Starts the SDK and installs its span starter; returns the flush-and-stop to call at shutdown. */
export function startOtel(serviceName: string): () => Promise<void> {
  // A root span takes the trace id the request already chose (its X-Trace-Id or a new one):
  // the SDK asks its id generator synchronously inside startSpan, so this hand-over is exact.
  let chosenTraceId: string | undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || serviceName }),
    idGenerator: {
      generateTraceId: () => chosenTraceId ?? newTraceId(),
      generateSpanId: newSpanId,
    },
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  const tracer = provider.getTracer('tidewater');
  useSpanStarter(({ name, trace: incoming, attributes }) => {
    const parent = incoming.parentSpanId
      ? trace.setSpanContext(ROOT_CONTEXT, {
          traceId: incoming.traceId,
          spanId: incoming.parentSpanId,
          traceFlags: incoming.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
          isRemote: true,
        })
      : ROOT_CONTEXT;
    chosenTraceId = incoming.traceId;
    const span = (() => {
      try {
        return tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
      } finally {
        chosenTraceId = undefined;
      }
    })();
    const ids = span.spanContext();
    return {
      traceId: ids.traceId,
      spanId: ids.spanId,
      sampled: (ids.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
      end(statusCode) {
        span.setAttribute('http.response.status_code', statusCode);
        if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      },
    };
  });
  return () => provider.shutdown();
}
