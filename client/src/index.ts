/**
 * @tidewater/client: the API's typed client (`createTidewaterClient`, openapi-fetch on the
 * spec's paths) and `moneySend`, a money send under the documented rules (adr/0044).
 */
export { createTidewaterClient, type TidewaterClient, type TidewaterClientOptions } from './tidewaterClient.ts';
export { moneySend, type MoneySendBounds, type MoneySendOutcome, type MoneySendPath, type MoneySendRequest, type MoneySendResult, type Problem, type SentBody, type Simulation } from './moneySend.ts';
/** The API's types (spec/openapi.yaml, by openapi-typescript): name a schema as `components['schemas']['Transfer']`. */
export type { components, operations, paths } from './generated/openapi.ts';
