/**
 * The env of the money tests that meet their deadline (deadline.test.ts, accountBulkhead.test.ts):
 * a 1.5 s deadline with the chain scaled under it, one attempt per send, and a lock wait as
 * long as the deadline (the most the chain allows), which starts after the request did: a
 * send held at a row lock ends at its deadline.
 */
export const shortDeadlineEnv = {
  VALIDATE_RESPONSES: '1',
  REQUEST_DEADLINE_MS: '1500',
  DB_STATEMENT_TIMEOUT_MS: '1000',
  DB_RETRY_BASE_DELAY_MS: '50',
  DB_RETRY_MAX_DELAY_MS: '200',
  ACCOUNT_LOCK_WAIT_MS: '1500',
  ACCOUNT_WRITE_ATTEMPTS: '1',
} as const;
