/**
 * One family of the server's table (config.ts): each default with its reason and its environment variable.
 */
/** Tokens, sign-in and sign-up limits, step-up and PIN, password hashing, the daily ceiling (adr/0045, adr/0046, adr/0053). */
export const identityDefaults = {
  /** 15 min (ACCESS_TOKEN_TTL_SECONDS): bearer token lifetime; the BFF renews before it ends. */
  accessTokenTtlSeconds: 900,
  /** 10,000 (ACCESS_TOKEN_CACHE_ENTRIES): verified tokens remembered until their expiry, per process (adr/0016); 0 verifies every time. ~1 MB. */
  accessTokenCacheEntries: 10_000,
  /** 2 s (ACCESS_TOKEN_RECHECK_SECONDS): how long a process trusts that an access token's session is alive before it reads again; the seconds a token may outlive a sign-out made on another process (adr/0064). */
  accessTokenRecheckSeconds: 2,
  /** 30 days (REFRESH_TOKEN_TTL_SECONDS): a rotating refresh token's lifetime. */
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  /** 5 min (STEP_UP_TTL_SECONDS): a step-up authorisation's lifetime (single use); long enough to confirm one send, short enough that a stolen one is soon useless. */
  stepUpTtlSeconds: 300,
  /** 10 (SIGN_IN_FAILURE_LIMIT): failed sign-ins per email from one address per window before 429; a real customer rarely mistypes ten times, and a stranger locks only their own address out. */
  signInFailureLimit: 10,
  /** 30 (SIGN_IN_ADDRESS_LIMIT): failed sign-ins from one address, whatever the email, per window: password spraying from one place stops there. */
  signInAddressLimit: 30,
  /** 10 (SIGN_IN_EMAIL_LIMIT): failures of one email from all addresses per window before each further try waits 2, 4, 8 … s after the last failure (at most SIGN_IN_DELAY_CAP_MS): a growing delay, never a lock a stranger can set. */
  signInEmailLimit: 10,
  /** 60 s (SIGN_IN_DELAY_CAP_MS): the longest of those waits; a guesser gets at most one try a minute per email, the owner waits a minute at worst. */
  signInDelayCapMs: 60_000,
  /** 1,000 (SIGN_IN_GLOBAL_LIMIT): failures of all emails per window before any address that already failed is refused: spraying from many addresses gets one failure each. */
  signInGlobalLimit: 1_000,
  /** 15 min (SIGN_IN_WINDOW_MS): the window the failures count in. */
  signInWindowMs: 900_000,
  /** 90 days (KNOWN_DEVICE_TTL_SECONDS): a device token lives this long after its last sign-in (adr/0043); a customer signs in more often than once a quarter, and a token found on a discarded device dies within one. */
  knownDeviceTtlSeconds: 90 * 24 * 3600,
  /** 20 (KNOWN_DEVICES_PER_CUSTOMER): the devices kept per customer, the least recently used dropped first: a client that never keeps its token cannot grow the table without bound. */
  knownDevicesPerCustomer: 20,
  /** 20 (REGISTER_ADDRESS_LIMIT): sign-ups tried from one address per REGISTER_WINDOW_MS, whatever their answer (a taken email too), before 429: a flood from one place meets 429 before it hashes, and a taken email cannot be probed faster (adr/0045). */
  registerAddressLimit: 20,
  /** 60 (REGISTER_GLOBAL_LIMIT): sign-ups tried from all addresses per REGISTER_WINDOW_MS before 429: two hashes a second at most (about a quarter of what 2 cores hash), so sign-in and step-up keep their share. */
  registerGlobalLimit: 60,
  /** 60 s (REGISTER_WINDOW_MS): the window sign-up attempts count in. */
  registerWindowMs: 60_000,
  /** 30 (PAYEE_LOOKUP_LIMIT): handles one customer may look up per PAYEE_LOOKUP_WINDOW_MS before 429: plenty to confirm payees, too few to list who banks here (adr/0046). */
  payeeLookupLimit: 30,
  /** 60 s (PAYEE_LOOKUP_WINDOW_MS): the window payee look-ups count in. */
  payeeLookupWindowMs: 60_000,
  /** 2 (HASHING_CONCURRENCY): password hashes (scrypt, ~0.27 s and 32 MiB each; sign-in and sign-up, never a PIN: adr/0053) run at once; more only slows every one of them on 2 cores. */
  hashingConcurrency: 2,
  /** 8 (HASHING_QUEUE): hashes that may wait in the hashing bulkhead's queue for a permit; beyond it 503 with a 1 s wait, so 48 sign-ins at once cannot make a real one wait seconds. */
  hashingQueue: 8,
  /** 5 (PIN_MAX_ATTEMPTS): PIN checks that may fail in a row before the PIN locks; a 4-digit PIN then gives a guesser 5 in 10,000 per lock. */
  pinMaxAttempts: 5,
  /** 15 min (PIN_LOCK_SECONDS): how long the first lock of a streak lasts; each further one lasts twice the one before (adr/0047). */
  pinLockSeconds: 900,
  /** 3 (PIN_LOCKS_BEFORE_BLOCK): the lock of a streak that blocks step-up until the bank unblocks it (`npm run pin:unblock`): 15 guesses in all, however often the password signs in, not about 480 a day (adr/0047, adr/0064, PSD2 RTS Art. 4). */
  pinLocksBeforeBlock: 3,
  /** 1 day (PIN_LOCK_MEMORY_SECONDS): a streak whose last lock ended this long ago is forgotten; also the longest one lock lasts. */
  pinLockMemorySeconds: 86_400,
  /** 1,000,000 minor units = 10,000.00 EUR (DAILY_SEND_LIMIT_MINOR): the money that may leave a customer per UTC day (withdrawals, transfers to others, external transfers), across all their accounts; bounds what a stolen session plus PIN can take (adr/0045). */
  dailySendLimitMinor: 1_000_000,
  /** 20 (MAX_OPEN_ACCOUNTS_PER_CUSTOMER): open accounts a customer may hold; one more is 422 ACCOUNT_LIMIT_REACHED, so no script opens rows without end (adr/0041). */
  maxOpenAccountsPerCustomer: 20,
} as const;

/** The environment variable of each of identityDefaults' values. */
export const identityEnvNames: { [K in keyof typeof identityDefaults]?: string } = {
  accessTokenTtlSeconds: 'ACCESS_TOKEN_TTL_SECONDS',
  accessTokenCacheEntries: 'ACCESS_TOKEN_CACHE_ENTRIES',
  accessTokenRecheckSeconds: 'ACCESS_TOKEN_RECHECK_SECONDS',
  refreshTokenTtlSeconds: 'REFRESH_TOKEN_TTL_SECONDS',
  stepUpTtlSeconds: 'STEP_UP_TTL_SECONDS',
  signInFailureLimit: 'SIGN_IN_FAILURE_LIMIT',
  signInAddressLimit: 'SIGN_IN_ADDRESS_LIMIT',
  signInEmailLimit: 'SIGN_IN_EMAIL_LIMIT',
  signInDelayCapMs: 'SIGN_IN_DELAY_CAP_MS',
  signInGlobalLimit: 'SIGN_IN_GLOBAL_LIMIT',
  signInWindowMs: 'SIGN_IN_WINDOW_MS',
  knownDeviceTtlSeconds: 'KNOWN_DEVICE_TTL_SECONDS',
  knownDevicesPerCustomer: 'KNOWN_DEVICES_PER_CUSTOMER',
  registerAddressLimit: 'REGISTER_ADDRESS_LIMIT',
  registerGlobalLimit: 'REGISTER_GLOBAL_LIMIT',
  registerWindowMs: 'REGISTER_WINDOW_MS',
  payeeLookupLimit: 'PAYEE_LOOKUP_LIMIT',
  payeeLookupWindowMs: 'PAYEE_LOOKUP_WINDOW_MS',
  hashingConcurrency: 'HASHING_CONCURRENCY',
  hashingQueue: 'HASHING_QUEUE',
  pinMaxAttempts: 'PIN_MAX_ATTEMPTS',
  pinLockSeconds: 'PIN_LOCK_SECONDS',
  pinLocksBeforeBlock: 'PIN_LOCKS_BEFORE_BLOCK',
  pinLockMemorySeconds: 'PIN_LOCK_MEMORY_SECONDS',
  dailySendLimitMinor: 'DAILY_SEND_LIMIT_MINOR',
  maxOpenAccountsPerCustomer: 'MAX_OPEN_ACCOUNTS_PER_CUSTOMER',
};
