// DO NOT EDIT: generated from spec/openapi.yaml by spec/scripts/generate.mjs (npm run generate).

/**
 * Every operation of spec/openapi.yaml, keyed by operationId: its HTTP method (upper
 * case), its path as an OpenAPI template and in Express `:param` form, and whether it
 * is a money send (`x-money-send`: Idempotency-Key, 409, 422), not cancelled by a
 * hang-up (`x-no-deadline`; the deadline still bounds it) and secured by a bearer token.
 */
export const operations = {
  register: {
    method: 'POST',
    path: '/api/auth/register',
    expressPath: '/api/auth/register',
    moneySend: false,
    noDeadline: false,
    secured: false,
  },
  createToken: {
    method: 'POST',
    path: '/api/auth/token',
    expressPath: '/api/auth/token',
    moneySend: false,
    noDeadline: false,
    secured: false,
  },
  refreshToken: {
    method: 'POST',
    path: '/api/auth/refresh',
    expressPath: '/api/auth/refresh',
    moneySend: false,
    noDeadline: true,
    secured: false,
  },
  revokeToken: {
    method: 'POST',
    path: '/api/auth/revoke',
    expressPath: '/api/auth/revoke',
    moneySend: false,
    noDeadline: true,
    secured: false,
  },
  logout: {
    method: 'POST',
    path: '/api/auth/logout',
    expressPath: '/api/auth/logout',
    moneySend: false,
    noDeadline: true,
    secured: true,
  },
  getMe: {
    method: 'GET',
    path: '/api/me',
    expressPath: '/api/me',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  listAccounts: {
    method: 'GET',
    path: '/api/accounts',
    expressPath: '/api/accounts',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  openAccount: {
    method: 'POST',
    path: '/api/accounts',
    expressPath: '/api/accounts',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  getAccount: {
    method: 'GET',
    path: '/api/accounts/{accountId}',
    expressPath: '/api/accounts/:accountId',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  renameAccount: {
    method: 'PATCH',
    path: '/api/accounts/{accountId}',
    expressPath: '/api/accounts/:accountId',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  closeAccount: {
    method: 'POST',
    path: '/api/accounts/{accountId}/close',
    expressPath: '/api/accounts/:accountId/close',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  setPrimaryAccount: {
    method: 'POST',
    path: '/api/accounts/{accountId}/primary',
    expressPath: '/api/accounts/:accountId/primary',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  verifyPin: {
    method: 'POST',
    path: '/api/step-up',
    expressPath: '/api/step-up',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  deposit: {
    method: 'POST',
    path: '/api/accounts/{accountId}/deposits',
    expressPath: '/api/accounts/:accountId/deposits',
    moneySend: true,
    noDeadline: false,
    secured: true,
  },
  withdraw: {
    method: 'POST',
    path: '/api/accounts/{accountId}/withdrawals',
    expressPath: '/api/accounts/:accountId/withdrawals',
    moneySend: true,
    noDeadline: false,
    secured: true,
  },
  createInternalTransfer: {
    method: 'POST',
    path: '/api/transfers/internal',
    expressPath: '/api/transfers/internal',
    moneySend: true,
    noDeadline: false,
    secured: true,
  },
  createExternalTransfer: {
    method: 'POST',
    path: '/api/transfers/external',
    expressPath: '/api/transfers/external',
    moneySend: true,
    noDeadline: false,
    secured: true,
  },
  getPayee: {
    method: 'GET',
    path: '/api/payees/{handle}',
    expressPath: '/api/payees/:handle',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  listTransactions: {
    method: 'GET',
    path: '/api/transactions',
    expressPath: '/api/transactions',
    moneySend: false,
    noDeadline: false,
    secured: true,
  },
  getHealth: {
    method: 'GET',
    path: '/api/health',
    expressPath: '/api/health',
    moneySend: false,
    noDeadline: false,
    secured: false,
  },
  getReady: {
    method: 'GET',
    path: '/api/ready',
    expressPath: '/api/ready',
    moneySend: false,
    noDeadline: false,
    secured: false,
  },
} as const;

/** The operationId of any operation in the contract. */
export type OperationId = keyof typeof operations;

/** One row of the operations table. */
export type OperationInfo = (typeof operations)[OperationId];
