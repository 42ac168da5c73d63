/**
 * `tidewater/success-examples`: every 2xx response with a body has an `example` or
 * `examples` in each of its media types. Without one, the rendered docs invent a sample
 * from the schema (a withdrawal of kind "deposit", a handle of "string"); ours are written
 * to be coherent, and `no-invalid-media-type-examples` validates each against its schema.
 */

/** True for 2xx status keys, including the `2XX` range. */
function isSuccessStatus(status) {
  return /^2([0-9]{2}|XX)$/i.test(status);
}

/** Redocly rule factory (visitor on each Operation). */
export default function SuccessExamples() {
  return {
    Operation: {
      enter(operation, ctx) {
        for (const [status, raw] of Object.entries(operation.responses ?? {})) {
          if (!isSuccessStatus(status)) continue;
          const response = ctx.resolve(raw).node;
          for (const [mediaType, content] of Object.entries(response?.content ?? {})) {
            if (content?.example !== undefined || Object.keys(content?.examples ?? {}).length > 0) continue;
            ctx.report({
              message: `Response ${status} (${mediaType}) of "${operation.operationId}" has no example; write a coherent one.`,
              location: ctx.location.child(['responses', status, 'content', mediaType]),
            });
          }
        }
      },
    },
  };
}
