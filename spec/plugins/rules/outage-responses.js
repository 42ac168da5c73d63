/**
 * `tidewater/outage-responses`: every operation answers 503 with the shared
 * ServiceUnavailable response and 499 with the shared ClientClosedRequest response.
 * The raw `$ref` is checked, not the resolved content: an inline copy would drift.
 */
const REQUIRED_REFS = {
  503: '#/components/responses/ServiceUnavailable',
  499: '#/components/responses/ClientClosedRequest',
};

/** Redocly rule factory (visitor on each Operation). */
export default function OutageResponses() {
  return {
    Operation: {
      enter(operation, ctx) {
        const responses = operation.responses ?? {};
        for (const [status, wantedRef] of Object.entries(REQUIRED_REFS)) {
          const response = responses[status];
          if (response === undefined) {
            ctx.report({
              message: `Operation "${operation.operationId}" must declare ${status} as $ref '${wantedRef}'.`,
              location: ctx.location.child(['responses']).key(),
            });
          } else if (response.$ref !== wantedRef) {
            ctx.report({
              message: `Response ${status} of "${operation.operationId}" must be exactly $ref '${wantedRef}'.`,
              location: ctx.location.child(['responses', status]),
            });
          }
        }
      },
    },
  };
}
