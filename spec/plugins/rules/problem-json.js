/**
 * `tidewater/problem-json`: every 4xx and 5xx response (499, which is only logged, too: typed
 * clients need its body) is `application/problem+json` and nothing else (RFC 9457; Zalando's guideline).
 */
const PROBLEM_JSON = 'application/problem+json';

/** True for 4xx/5xx status keys, including the `4XX`/`5XX` ranges. */
function isErrorStatus(status) {
  return /^[45]([0-9]{2}|XX)$/i.test(status);
}

/** Redocly rule factory (visitor on each Operation). */
export default function ProblemJson() {
  return {
    Operation: {
      enter(operation, ctx) {
        for (const [status, raw] of Object.entries(operation.responses ?? {})) {
          if (!isErrorStatus(status)) continue;
          const response = ctx.resolve(raw).node;
          const mediaTypes = Object.keys(response?.content ?? {});
          if (mediaTypes.length !== 1 || mediaTypes[0] !== PROBLEM_JSON) {
            ctx.report({
              message:
                `Response ${status} of "${operation.operationId}" must have content ${PROBLEM_JSON} only` +
                ` (has: ${mediaTypes.join(', ') || 'none'}).`,
              location: ctx.location.child(['responses', status]),
            });
          }
        }
      },
    },
  };
}
