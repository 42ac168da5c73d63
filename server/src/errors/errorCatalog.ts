/**
 * The one error catalog: every `errorCode` the API can answer, with its HTTP status,
 * title and problem type. It lives in the contract workspace (contract/src/errors.ts),
 * shared with the BFF and the SPA; the spec's `Problem.errorCode` enum is the same list,
 * and `errorCatalog.test.ts` keeps the two equal in both directions.
 */
export { errorCatalog, type ErrorCode } from '@tidewater/contract/errors';
