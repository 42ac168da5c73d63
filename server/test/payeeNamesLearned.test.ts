/**
 * Names learned by a stranger through confirmation of payee (issue 54 item 2, adr/0072), on
 * the real API over HTTP on PostgreSQL. A customer who knows handles but not the names
 * behind them probes them with a guess: before, `GET /api/payees/{handle}` named the owner of
 * every handle that exists and answered 404 for one that does not (30 a minute: 1,800 names
 * an hour, and who banks here besides). Now the payer gives the name they expect (a look-up
 * without one is 400); a wrong guess hears `no_match` with no name, byte for byte what a
 * handle nobody has hears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const password = 'correct horse battery';
const stranger = uniqueHandle('cps');
const victims = ['Grace Hopper', 'Ada Lovelace', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Frances Allen', 'John Backus', 'Radia Perlman', 'Ken Thompson'];
/** The look-ups a customer may make per window (PAYEE_LOOKUP_LIMIT's default) and windows an hour. */
const perWindow = 30;
const windowsPerHour = 60;

describe('names a stranger learns through confirmation of payee', () => {
  let setup: BankOnPostgres;
  let strangerToken: string;
  const handles = victims.map(() => uniqueHandle('cp'));
  const absent = victims.map(() => uniqueHandle('cp'));

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', REGISTER_ADDRESS_LIMIT: '100' } });
    const register = (handle: string, displayName: string) =>
      call(setup.api.url, 'POST', '/api/auth/register', { body: { email: `${handle}@example.com`, password, displayName, handle, pin: '2468' } });
    for (const [i, name] of victims.entries()) expect((await register(handles[i]!, name)).status).toBe(201);
    expect((await register(stranger, 'Mallory Stranger')).status).toBe(201);
    const token = await call(setup.api.url, 'POST', '/api/auth/token', { body: { email: `${stranger}@example.com`, password } });
    strangerToken = token.body.accessToken;
  }, 120_000);
  afterAll(() => setup?.stop());

  it('learns no name and cannot tell a customer\'s handle from one nobody has', async () => {
    // Each handle is probed as a stranger would: with no name, and with a guess.
    const probe = async (handle: string) => {
      const bare = await call(setup.api.url, 'GET', `/api/payees/${handle}`, { token: strangerToken });
      const guessed = await call(setup.api.url, 'GET', `/api/payees/${handle}?name=${encodeURIComponent('John Smith')}`, { token: strangerToken });
      const shown = JSON.stringify([bare.body, guessed.body]);
      return { named: victims.some((name) => shown.includes(name)), answer: `${bare.status} ${guessed.status} ${JSON.stringify(guessed.body)}` };
    };
    const real = [];
    const none = [];
    for (const handle of handles) real.push(await probe(handle));
    for (const handle of absent) none.push(await probe(handle));
    const learned = real.filter((probed) => probed.named).length;
    const answers = new Set([...real, ...none].map((probed) => probed.answer));
    // Two look-ups a handle: at the limit, a stranger probes perWindow / 2 handles a window.
    const namesPerHour = (learned / real.length) * (perWindow / 2) * windowsPerHour;
    console.info(`names learned: ${learned} of ${real.length} handles; ${namesPerHour} an hour; answers for real and absent handles: ${[...answers].join(' | ')}`);
    expect(learned).toBe(0);
    expect([...answers]).toEqual(['400 200 {"result":"no_match"}']);
  });
});
