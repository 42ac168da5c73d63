/**
 * `tidewater/money-send-idempotency`: every operation marked `x-money-send: true`
 * takes a required `Idempotency-Key` header and declares 409 (idempotency conflicts)
 * and 422 (including IDEMPOTENCY_KEY_REUSED). Any other operation that takes an
 * `Idempotency-Key` (opening an account, where it is optional) answers by the same
 * protocol, so it declares 409 and 422 too. Parameters may be `$ref`s and may sit on
 * the path item.
 */
const HEADER = 'idempotency-key';
const REQUIRED_STATUSES = ['409', '422'];

/** Redocly rule factory (nested visitor: Operation inside its PathItem). */
export default function MoneySendIdempotency() {
  return {
    PathItem: {
      Operation: {
        enter(operation, ctx, parents) {
          const moneySend = operation['x-money-send'] === true;
          const name = operation.operationId;
          const parameters = [...(parents.PathItem?.parameters ?? []), ...(operation.parameters ?? [])];
          const key = parameters
            .map((parameter) => ctx.resolve(parameter).node)
            .find((parameter) => parameter?.in === 'header' && parameter.name?.toLowerCase() === HEADER);
          // Off a money send, a key (optional or not) still brings the protocol's 409 and 422.
          if (!moneySend && !key) return;
          if (moneySend && !key) {
            ctx.report({
              message: `Money send "${name}" must take an Idempotency-Key header parameter.`,
              location: ctx.location.key(),
            });
          } else if (moneySend && key.required !== true) {
            ctx.report({
              message: `The Idempotency-Key header of money send "${name}" must be required.`,
              location: ctx.location.key(),
            });
          }
          const responses = operation.responses ?? {};
          for (const status of REQUIRED_STATUSES) {
            if (responses[status] === undefined) {
              ctx.report({
                message: moneySend
                  ? `Money send "${name}" must declare a ${status} response.`
                  : `Operation "${name}" takes an Idempotency-Key, so it must declare a ${status} response.`,
                location: ctx.location.child(['responses']).key(),
              });
            }
          }
        },
      },
    },
  };
}
