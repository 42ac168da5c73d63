/**
 * Every sentence the SPA says about an outage, a wait or an error, in one file (adr/0009,
 * "Words"): one sentence for the outage, and other words only where the visitor's
 * next step differs (whether money moved, whether a change was saved, whether pressing
 * the same button again is safe). The servers' titles and details are never shown:
 * they promise times nobody measured.
 */
import { isServiceOutage, type ApiProblem, type ProblemCode } from './api/apiProblem.ts';

/** The outage, whoever reported it: every 503 and the SPA's own 65 s abort. */
export const OUTAGE = 'The service is temporarily unavailable. Please try again later.';

/** After the visitor's own Stop: their choice, shown as a notice, not an error. */
export const STOPPED = 'Loading stopped.';

/** Hints under the control that started a wait. */
export const waitHints = {
  /** From 5 s. */
  slow: 'Taking longer than usual…',
  /** From 20 s. */
  still: 'Still trying…',
  /** Said, unseen, when a read that said something loads (WCAG 4.1.3). */
  loaded: 'Loaded.',
} as const;

/** What a send is, for the sentences that name it. */
export type SendKind = 'deposit' | 'withdrawal' | 'transfer';

/** Sentences about a money send's outcome and its key. */
export const sendMessages = {
  /** A 503 with `applied: false`: the server knows nothing moved. */
  nothingChanged: 'The service is temporarily unavailable, and nothing was changed.',
  /** A send that may have landed and keeps its key: the control re-sends the same key. */
  mayHaveLanded: "The service is temporarily unavailable, and we can't tell yet whether it went through.",
  /** A server failure that is not an outage, on a send that keeps its key. */
  failedMayHaveLanded: "Something went wrong on our side, and we can't tell yet whether it went through.",
  /** No answer at all: the key is dropped and a check comes first. */
  lostMayHaveLanded: "We lost the connection, so we can't tell yet whether it went through. Check before sending it again.",
  /** A 409 with no code, a reused key, or an edit while a key was held. */
  checkFirst: "We can't tell yet whether it went through. Check before sending it again.",
  /** The details changed after a send we could not confirm. */
  editedWhileUnsure: "You changed the details of a send we couldn't confirm. Check whether it went through before sending it again.",
  /** 409 IDEMPOTENCY_IN_FLIGHT: the first request with this key is still being processed. */
  inFlight: "It's still being processed. Wait a moment, then try again.",
  /** 409 IDEMPOTENCY_RESULT_UNKNOWN with `applied: true`: it landed; no send is offered. Named by the send. */
  wentThrough: {
    deposit: "Your deposit went through, but we couldn't show its receipt.",
    withdrawal: "Your withdrawal went through, but we couldn't show its receipt.",
    transfer: "Your transfer went through, but we couldn't show its receipt.",
  } satisfies Record<SendKind, string>,
  /** The same, when nothing names the send. */
  wentThroughUnnamed: "It went through, but we couldn't show its receipt.",
  /** Only beside a control that re-sends the same key; never during a wait; never on a deposit. */
  sameKeyIsSafe: "Retrying won't charge you twice.",
} as const;

/** A send's own words at each instant (composables/sendWords.ts, adr/0066). */
export const sendWordsText = {
  /** Under the review's heading while nothing has left. */
  notSent: 'Nothing has been sent yet. Check the details, then confirm.',
  /** After a refusal: the bank moved nothing. */
  refused: 'Nothing was moved. Check the details, then confirm.',
  /** From the first byte until an answer: the one sentence that it may have gone through. */
  sending: "It's on its way, and may already have gone through. Keep this page open until we know.",
  /** The browser went offline while a send waits. */
  offline: "You're offline. We'll know whether it went through once you're back online.",
} as const;

/** Sentences of the look-up by key. */
export const checkMessages = {
  /** Kept on the receipt the listing by key returned, and focused. */
  found: {
    deposit: 'Your deposit went through.',
    withdrawal: 'Your withdrawal went through.',
    transfer: 'Your transfer went through.',
  } satisfies Record<SendKind, string>,
  notYet: "We can't find it yet. It may still go through, so this page will check once more by itself.",
  notFound: "It didn't go through, and nothing was changed. You can send it again.",
} as const;

/** Sentences of a held send: one whose outcome this browser does not know, shown on every page and tab (adr/0051). */
export const heldMessages = {
  /** The notice's heading. */
  heading: "A send we couldn't confirm",
  /** Under its name: why nothing else is offered. */
  unknown: "We can't tell yet whether it went through. Check it, or send it again safely: it can't go through twice.",
  /** Told once a check found it must be looked up, not re-sent. */
  checkFirst: "We can't tell yet whether it went through. Check before sending it again.",
  /** A page of this browser (this tab's or another's) holds the key's lock: it is sending it now. */
  sendingElsewhere: 'It is already being sent, here or in another tab. Its answer will show here too.',
  /** Said when the notices appear (a status region, present and empty from the start). */
  count: (count: number) => (count === 1 ? "You have 1 send we couldn't confirm." : `You have ${count} sends we couldn't confirm.`),
  /** Its outcome, learnt in this tab or another. */
  landed: (label: string) => `${label}: it went through.`,
  notMoved: (label: string) => `${label}: it didn't go through, and nothing was changed.`,
  /** A review of the same money as a held send in doubt: it sends nothing (adr/0067). */
  sameInDoubt: (label: string, started: string) => `${label} (${started}) isn't confirmed yet. Check it or send it again safely above: it can't go through twice that way.`,
  /** The heading over those receipts. */
  landedHeading: 'It went through',
  /** A landed send's receipt that no page showed: under its name, until dismissed (adr/0065). */
  landedAt: (time: string) => `It went through ${time.includes(' at ') ? 'on' : 'at'} ${time}.`,
} as const;

/** Sentences of the bank's recent sends this browser has no record of (adr/0051). */
export const recentMessages = {
  heading: 'Sent in the last few minutes',
  intro: 'This browser has no record of these sends, from this device or another. Look at them before sending the same money again.',
  landed: (label: string, started: string) => `${label} went through (${started}).`,
  inFlight: (label: string, started: string) => `${label} (${started}) is still being processed. Wait for it before sending the same money again.`,
  /** Said once the list shows. */
  count: (count: number) => (count === 1 ? 'The bank has 1 recent send this browser has no record of.' : `The bank has ${count} recent sends this browser has no record of.`),
} as const;

/** Sentences about the session. */
export const sessionMessages = {
  /** The start-up page's tab title, while the session check runs. */
  startUpTitle: 'Loading',
  /** The start-up page's heading. */
  startUpHeading: 'Loading Tidewater',
  /** The start-up page when the session check got anything but an answer or a 4xx (also its tab title). */
  unavailableTitle: 'Temporarily unavailable',
  signOutFailed: "We couldn't sign you out. You're still signed in.",
  signedOut: "You're signed out.",
  expired: 'You were signed out because you were inactive for a while.',
  idleTitle: "You're about to be signed out",
  idleBody: (time: string) => `For your security, we'll sign you out in ${time} unless you stay signed in.`,
} as const;

/** What a page says where its data would be, while a read of it has failed or was stopped. */
export const gapMessages = {
  accounts: "Your accounts can't be shown right now.",
  account: "This account can't be shown right now.",
  movements: "Its movements can't be shown right now.",
  transferForm: "The transfer form needs your accounts, which can't be shown right now.",
} as const;

/** The movements' search and the monthly statements (adr/0071). */
export const findMessages = {
  rangeReversed: 'Enter a "to" date on or after the "from" date.',
  searchText: 'Enter at most 100 characters, with no line breaks.',
  /** How many movements a search found so far (a page at a time). */
  found: (count: number, more: boolean) => (count === 0 ? 'No movements match this search.' : `${more ? 'At least ' : ''}${count} movement${count === 1 ? '' : 's'} match${count === 1 ? 'es' : ''} this search.`),
  preparing: (month: string, format: string) => `Preparing the ${format.toUpperCase()} statement for ${month}…`,
  saved: (fileName: string) => `Statement ready: ${fileName}. Your browser saves it to your downloads.`,
} as const;

const clockFormat = new Intl.DateTimeFormat('en-IE', { timeStyle: 'short' });
/** "14:05", or "earlier" for a time not known. */
const clockTime = (epochMs: number | undefined) => (epochMs === undefined ? 'earlier' : clockFormat.format(new Date(epochMs)));

/** What a page says while the balances it shows may be out of date: a read of them is slow, failed or was stopped (adr/0054). */
export const staleMessages = {
  /** One account's page, given when its balance was read; its Deposit, Withdraw and Transfer are greyed meanwhile. */
  balance: (readAt: number | undefined) => `This balance is from ${clockTime(readAt)} and may have changed since. Deposit, Withdraw and Transfer come back once it is up to date.`,
  /** The dashboard; each account's actions are greyed meanwhile. */
  balances: (readAt: number | undefined) => `These balances are from ${clockTime(readAt)} and may have changed since. Deposit and Transfer come back once they are up to date.`,
} as const;

/** The PIN dialog's answer to Escape or Cancel while its check is with the bank (a write is never given up on). */
export const PIN_HELD_OPEN = 'Your PIN check is still with the bank, so this stays open until the bank answers.';

/** The visitor's own handle on the dashboard. */
export const handleMessages = {
  explain: 'Other Tidewater customers send you money with your handle.',
  copied: 'Copied your handle.',
  copyFailed: (handle: string) => `We couldn't copy it. Your handle is @${handle}.`,
  shareTitle: 'Pay me with Tidewater',
  shareText: (displayName: string, handle: string) => `Send money to ${displayName} on Tidewater: my handle is @${handle}.`,
  shareFailed: "We couldn't open sharing. Copy your handle instead.",
} as const;

/** What a change with no key found once the account was read again after an unsure answer. */
export const changeMessages = {
  renameSaved: (name: string) => `Your change was saved: this account is now called ${name}.`,
  renameNotSaved: (name: string) => `Your change wasn't saved: this account is still called ${name}. You can try again.`,
  primarySaved: 'Your change was saved: this is now your primary account.',
  primaryNotSaved: "Your change wasn't saved: this is not your primary account. You can try again.",
  closeSaved: 'Your change was saved: this account is closed.',
  closeNotSaved: "Your change wasn't saved: this account is still open. You can try again.",
} as const;

/** Sentences about opening an account, which carries an Idempotency-Key (adr/0013). */
export const openMessages = {
  opened: (name: string) => `Opened ${name}.`,
  /** A 503 with `applied: false`. */
  notOpened: 'The service is temporarily unavailable, and no account was opened.',
  /** Any other outage: the key is kept, "Try again" re-sends it. */
  mayHaveOpened: "The service is temporarily unavailable, and we can't tell yet whether your account was opened.",
  lostMayHaveOpened: "We lost the connection, so we can't tell yet whether your account was opened.",
  failedMayHaveOpened: "Something went wrong on our side, and we can't tell yet whether your account was opened.",
  inFlight: "It's still being opened. Wait a moment, then try again.",
  /** 409 RESULT_UNKNOWN with `applied: true`: it was opened; the list is read again. */
  wentThrough: 'Your account was opened. It is in the list of your accounts.',
} as const;

/** The review before a send, and the receipt after it (adr/0050). */
export const reviewMessages = {
  heading: 'Check the details',
  /** The button of a send that goes on the PIN first. */
  toPin: 'Continue to your PIN',
  /** The send button's words while its request is out, from the first instant. */
  sending: (amount: string) => `Sending ${amount}…`,
  /** The receipt's line under its heading. */
  wentThrough: 'It went through.',
  /** Confirmation of payee as the handle and name are typed (adr/0072): the name is the holder's. */
  payeeMatch: (name: string) => `The name matches: ${name}.`,
  /** Nearly the holder's name: the bank says whose it is, so the payer can judge. */
  payeeCloseMatch: (name: string) => `Close match: this handle's holder is ${name}. Check this is who you mean to pay.`,
  /** Not the holder's name, or nobody's handle (the bank does not say which); neutral while the visitor may still be typing. */
  payeeNoMatch: "This name doesn't match the handle so far.",
  lookingUp: 'Checking the name and handle…',
  /** The answer to "You sent €55.55 to Everyday at 14:03 — send it again?" that lets the review's button send. */
  sendAgainYes: 'Yes, send it again',
} as const;

/** Sentences confirming a change the visitor made (a live region says them). */
export const doneMessages = {
  renamed: (name: string) => `Saved: this account is now called ${name}.`,
  primary: 'Saved: this is now your primary account.',
  closed: (name: string) => `Closed ${name}. You will find it under Closed accounts.`,
} as const;

/** Sentences about a form field. */
export const fieldMessages = {
  required: 'Enter a value.',
  amountFormat: 'Enter an amount in euros, like 12.34.',
  amountTooSmall: 'Enter an amount of at least €0.01.',
  amountTooLarge: 'Enter an amount of at most €1,000,000,000.00.',
  email: 'Enter an email address, like name@example.com.',
  password: 'Use at least 10 characters.',
  handle: 'Use 3 to 20 lowercase letters, digits or underscores.',
  /** On "Continue" with a name and handle that do not match (confirmation of payee's no match). */
  payeeNoMatch: "This name doesn't match the handle. Check both with the person you're paying, then try again.",
  payeeName: "Enter the name of the person you're paying, as they gave it to you.",
  /** More than the shown balance of the account the money would leave. */
  moreThanBalance: (balance: string, account: string) => `That's more than the ${balance} in ${account}. Enter a smaller amount.`,
  /** The IBAN's check digits (ISO 13616, mod 97) do not match: a typo. */
  ibanChecksum: "That IBAN's check digits don't match: a character is probably mistyped. Check it and try again.",
  /** Closing an account that still holds money. */
  closeNotEmpty: (balance: string) => `This account still holds ${balance}. Move the money out of it before you close it.`,
  closePrimary: 'This is your primary account. Make another account primary before you close this one.',
  pin: 'Enter 4 to 6 digits.',
  displayName: 'Enter your name.',
  accountName: 'Enter a name of at most 60 characters.',
  iban: 'Enter an IBAN, like DE89 3704 0044 0532 0130 00.',
  beneficiaryName: 'Enter the name of the account holder.',
  recipient: 'Choose an account to send to.',
  description: 'Use at most 140 characters.',
} as const;

/** Plain sentences for the API's codes whose next step is the visitor's own. */
const codeMessages: Partial<Record<ProblemCode, string>> = {
  INVALID_CREDENTIALS: "That email and password don't match an account.",
  EMAIL_TAKEN: 'An account with that email already exists. Sign in instead.',
  HANDLE_TAKEN: 'That handle is taken. Choose another.',
  PIN_INCORRECT: "That PIN isn't right.",
  PIN_LOCKED: 'Your PIN is locked after too many wrong tries. Try again later.',
  PIN_BLOCKED: 'Your PIN is blocked after too many wrong tries. Contact Tidewater support to unblock it; signing in again does not.',
  AUTHORIZATION_INVALID: 'Your PIN check is no longer valid. Enter your PIN again. Nothing was changed.',
  AUTHORIZATION_EXPIRED: 'Your PIN check has expired. Enter your PIN again. Nothing was changed.',
  AUTHORIZATION_MISMATCH: 'Your PIN approved a different payment. Enter your PIN again for this one. Nothing was changed.',
  INSUFFICIENT_FUNDS: "There isn't enough money in this account. Nothing was changed.",
  DAILY_LIMIT_EXCEEDED: "This would go over today's limit for money leaving your accounts. Nothing was changed.",
  INVALID_IBAN: "That IBAN isn't valid. Check it and try again.",
  SAME_ACCOUNT: 'Choose a different account to send to.',
  PAYEE_NOT_FOUND: 'No customer has this handle. Check it and try again.',
  PAYEE_HAS_NO_OPEN_ACCOUNT: "That customer can't receive money right now. Nothing was changed.",
  ACCOUNT_NOT_FOUND: "We couldn't find that account.",
  NOT_FOUND: "We couldn't find that.",
  ACCOUNT_CLOSED: 'That account is closed. Nothing was changed.',
  ACCOUNT_NOT_EMPTY: 'Move the money out of this account before you close it.',
  ACCOUNT_IS_PRIMARY: 'Make another account primary before you close this one.',
  ACCOUNT_LIMIT_REACHED: 'You already hold as many open accounts as you can. Close one before you open another.',
  TOO_MANY_REQUESTS: 'Too many tries. Wait a minute, then try again.',
  VALIDATION_FAILED: "Some details aren't valid. Check them and try again.",
  MALFORMED_JSON: "Some details aren't valid. Check them and try again.",
  UNAUTHENTICATED: 'Your session has ended. Please sign in again.',
  TOKEN_INVALID: 'Your session has ended. Please sign in again.',
  FORBIDDEN: "You can't do that.",
  IDEMPOTENCY_IN_FLIGHT: sendMessages.inFlight,
  IDEMPOTENCY_KEY_REUSED: sendMessages.checkFirst,
};

/** What the visitor was doing, because the same problem means different next steps. */
export type ProblemContext =
  /** Loading something; nothing changes. */
  | 'read'
  /** A change with no key (open, rename, close, make primary): may be saved. */
  | 'change'
  /** A money send holding an Idempotency-Key. */
  | 'moneySend'
  /** Opening an account, holding an Idempotency-Key. */
  | 'openAccount'
  /** The PIN step before a withdrawal or an external transfer. */
  | 'pinCheck'
  /** Sign-in, sign-up. */
  | 'auth';

/** The one sentence for `problem` met while doing `context` (a money send names itself by `kind`). */
export function problemMessage(problem: ApiProblem, context: ProblemContext, kind?: SendKind): string {
  if (problem.code === 'SENDING_ELSEWHERE') return heldMessages.sendingElsewhere;
  if (context === 'openAccount') return openProblemMessage(problem);
  // The outage first, before any connection branch (adr/0009).
  if (isServiceOutage(problem)) {
    if (context === 'moneySend') return problem.applied === false ? sendMessages.nothingChanged : sendMessages.mayHaveLanded;
    if (context === 'pinCheck') return 'The service is temporarily unavailable, and no money was moved.';
    if (context === 'change') return "The service is temporarily unavailable, and we can't tell yet whether your change was saved.";
    return OUTAGE;
  }
  if (problem.code === 'STOPPED') return STOPPED;
  if (problem.code === 'IDEMPOTENCY_RESULT_UNKNOWN' && problem.applied === true) return kind ? sendMessages.wentThrough[kind] : sendMessages.wentThroughUnnamed;
  if (problem.code === 'CONNECTION_FAILED' || problem.code === 'UNREADABLE_RESPONSE') {
    if (context === 'moneySend') return sendMessages.lostMayHaveLanded;
    if (context === 'change') return "We lost the connection, so we can't tell yet whether your change was saved.";
    if (context === 'pinCheck') return "We couldn't reach Tidewater, and no money was moved. Check your connection and try again.";
    return "We couldn't reach Tidewater. Check your connection and try again.";
  }
  if (problem.status === 409 && context === 'moneySend' && problem.code.startsWith('HTTP_')) return sendMessages.checkFirst;
  const known = codeMessages[problem.code];
  if (known) return known;
  if (problem.status !== null && problem.status >= 500) {
    if (context === 'moneySend') return sendMessages.failedMayHaveLanded;
    if (context === 'change') return "Something went wrong on our side, and we can't tell yet whether your change was saved.";
    return 'Something went wrong on our side. Please try again later.';
  }
  return context === 'read'
    ? "Something went wrong while loading this. Please try again."
    : "Something went wrong, and nothing was changed. Please try again.";
}

/** Opening an account: the key is kept on everything but a known answer, so the words say whether it was opened. */
function openProblemMessage(problem: ApiProblem): string {
  if (isServiceOutage(problem)) return problem.applied === false ? openMessages.notOpened : openMessages.mayHaveOpened;
  if (problem.code === 'IDEMPOTENCY_RESULT_UNKNOWN' && problem.applied === true) return openMessages.wentThrough;
  if (problem.code === 'IDEMPOTENCY_IN_FLIGHT') return openMessages.inFlight;
  if (problem.status === null) return openMessages.lostMayHaveOpened;
  if (problem.status >= 500) return openMessages.failedMayHaveOpened;
  return codeMessages[problem.code] ?? "Something went wrong, and no account was opened. Please try again.";
}
