/**
 * The HTTP edge both Express apps (the API and the BFF) share: pure functions and Node's
 * own types only, so the contract needs no Express; each app keeps its Express glue.
 * Node-only (the SPA never imports this entry).
 */
export { answerClientError } from './clientError.ts';
export { writeProblem, type ProblemResponse } from './writeProblem.ts';
export { jsonShape, MAX_JSON_DEPTH } from './jsonShape.ts';
export { trustProxySetting } from './trustProxy.ts';
export { assignTraceId, traceIdLogOptions, requestSpanOf } from './traceId.ts';
export { childTraceparent, traceparentOf } from './traceContext.ts';
export { stopOnSignals } from './shutdown.ts';
export { startTracing } from './tracing.ts';
export { startMetricsListener } from './metricsListener.ts';
export { serverLogger, logFormat, type LogFormat } from './serverLogger.ts';
