/**
 * A registration that loses its race: another customer takes the email or the handle after
 * `register` checked them and before its insert. The database's unique key refuses the
 * insert, and the answer is the same 409 the check would have given, not a 500.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { loadConfig } from '../../config.ts';
import { inRequest, memoryLogger } from '../../../test/support/inRequest.ts';
import { createDataLayer } from '../../data/createDataLayer.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { openDatabase, type Database } from '../../data/connections/index.ts';
import type { DomainDeps } from '../deps.ts';
import type { PinVerifiers } from './pinVerifier.ts';
import type { SecretHashing } from './secrets.ts';
import { userHandlers } from './userHandlers.ts';

type Register = ReturnType<typeof userHandlers>['register'];

describe('register, when another registration takes its email or handle meanwhile', () => {
  let database: Database;
  let data: DataLayer;

  beforeAll(async () => {
    database = await openDatabase(loadConfig({ DATA_DIR: 'memory://' }));
    await database.migrate();
  }, 60_000);
  afterAll(() => database?.close());

  /** `register`, whose password hashing (between the check and the insert) lets `rival` register first. */
  function registerAfter(rival: { email: string; handle: string }): Register {
    const config = loadConfig({ DATA_DIR: 'memory://' });
    data = createDataLayer({ database, config, logger: memoryLogger().logger });
    const secrets = {
      async hash() {
        await data.db.$executeRaw`
          INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
          VALUES (${randomUUID()}::uuid, ${rival.email}::text, 'Rival', ${rival.handle}::text, 'x', 'x')`;
        return 'password-hash';
      },
    } as unknown as SecretHashing;
    const pins = { make: () => 'pin-hash' } as unknown as PinVerifiers;
    return userHandlers({ data, config, secrets, pins } as DomainDeps).register;
  }

  const cases: Array<[string, { rivalEmail: boolean; rivalHandle: boolean }, string]> = [
    ['the email', { rivalEmail: true, rivalHandle: false }, 'EMAIL_TAKEN'],
    ['the handle', { rivalEmail: false, rivalHandle: true }, 'HANDLE_TAKEN'],
  ];

  it.each(cases)('answers 409 when it loses %s', async (_, { rivalEmail, rivalHandle }, errorCode) => {
    const suffix = randomUUID().slice(0, 8);
    const mine = { email: `me-${suffix}@example.com`, handle: uniqueHandle('me') };
    const rival = { email: rivalEmail ? mine.email : `rival-${suffix}@example.com`, handle: rivalHandle ? mine.handle : uniqueHandle('rival') };
    const register = registerAfter(rival);
    const body = { ...mine, displayName: 'Me', password: 'a long and unusual passphrase', pin: '583920' };
    const outcome = await inRequest(() => register({ body, clientAddress: '203.0.113.9' } as Parameters<Register>[0])).catch((error: unknown) => error);
    expect(outcome).toMatchObject({ status: 409, code: errorCode });
    const [users] = await data.db.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM users WHERE email = ${mine.email}::text OR handle = ${mine.handle}::text`;
    expect(users!.count).toBe(1);
  });
});
