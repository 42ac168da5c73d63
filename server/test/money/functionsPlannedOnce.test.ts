/**
 * Migration 1764856000000 changes how PostgreSQL runs `wire_transaction`, `land_claim` and
 * `canonical_json` (planned once per connection; scalars spelled without a call), never what
 * they answer: on the same rows and values each answers the same text under the migration's
 * Up as under its Down, the functions before it, on a real PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { migrateUp } from '../../src/data/connections/migrate.ts';

const [up, down] = readFileSync(new URL('../../prisma/migrations/1764856000000_money_functions_planned_once.sql', import.meta.url), 'utf8').split('-- Down Migration');

/** Text a JSON spelling must escape alike on both sides. */
const hostile = 'Quote " backslash \\ slash / é ß 😀 \u2028 <tag> &amp;';

/** Values whose canonical JSON is compared: every kind of member, at every depth. */
const values = [
  { b: 1, a: { d: [3, { z: null, y: true }], c: 'x' }, B: false },
  { [hostile]: hostile, list: [hostile, '', 0, -1.5, 1e21] },
  [[1, [hostile, { b: [], a: [[null]] }]], {}, 'é', true],
  { e: {}, f: [] },
  hostile,
  null,
  12.5,
];

describe('the money functions planned once answer what they answered before', () => {
  let cluster: PgCluster;
  let client: pg.Client;
  let userId: string;

  beforeAll(async () => {
    cluster = await startPrimary();
    const url = cluster.urlFor('tidewater');
    await migrateUp({ databaseUrl: url });
    client = new pg.Client({ connectionString: url });
    await client.connect();
    userId = randomUUID();
    const payee = randomUUID();
    await client.query(
      `INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
       VALUES ($1, 'ada@example.test', 'Ada', 'ada', 'x', 'x'), ($2, 'mara@example.test', $3, 'mara', 'x', 'x')`,
      [userId, payee, `Mara ${hostile}`],
    );
    const { rows } = await client.query<{ id: string }>(`INSERT INTO accounts (id, user_id, name) VALUES (gen_random_uuid(), $1, 'main') RETURNING id::text AS id`, [userId]);
    // A deposit, transfers named by a handle (one whose customer is gone) and by an account, an external transfer.
    await client.query(
      `INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, description, counterparty, idempotency_key, transfer_id, created_at)
       VALUES (gen_random_uuid(), $1, 'deposit', 500, 500, NULL, NULL, 'k1', NULL, '2026-12-07 04:00:00.123+00'),
              (gen_random_uuid(), $1, 'transfer_out', -100, 400, $2, '@mara', 'k2', gen_random_uuid(), '2026-12-07 04:00:01.5+00'),
              (gen_random_uuid(), $1, 'transfer_out', -100, 300, '', '@gone', 'k3', gen_random_uuid(), '2026-12-07 04:00:02+00'),
              (gen_random_uuid(), $1, 'transfer_in', 50, 350, NULL, 'Savings', NULL, gen_random_uuid(), '2026-12-07 04:00:03+00'),
              (gen_random_uuid(), $1, 'external_out', -50, 300, $2, 'Jo (DE89370400440532013000)', 'k4', gen_random_uuid(), '2026-12-07 04:00:04+00')`,
      [rows[0]!.id, hostile],
    );
  });
  afterAll(async () => {
    await client?.end();
    await cluster?.destroy();
  });

  /** Everything the three functions answer here, as text; `version` names the claims it lands. */
  async function answers(version: string) {
    const wire = (await client.query<{ text: string }>('SELECT wire_transaction(e)::text AS text FROM ledger_entries e ORDER BY e.created_at')).rows;
    const canonical = (await client.query<{ text: string }>(
      'SELECT canonical_json(v) AS text FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS item(v, i) ORDER BY i', [JSON.stringify(values)])).rows;
    const claim = randomUUID();
    await client.query(
      `INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token) VALUES ($1, $2, $3, 'deposit', 'h', 'Processing', gen_random_uuid())`,
      [claim, userId, `key ${version}`],
    );
    const body = JSON.stringify({ id: 'x', description: hostile, amountMinor: 5, nested: { b: [1, null], a: 'é' } });
    const landed = (await client.query<{ text: string | null; none: string | null }>(
      'SELECT land_claim($1, $2::jsonb)::text AS text, land_claim(gen_random_uuid(), $2::jsonb)::text AS none', [claim, body])).rows;
    const record = (await client.query(
      `SELECT status, response_status, response_body::text AS body, landed_at IS NOT NULL AS landed, completed_at IS NOT NULL AS completed FROM idempotency_records WHERE id = $1`, [claim])).rows;
    return { wire, canonical, landed, record };
  }

  it('answers the same text under the Up as under the Down: movements, canonical JSON, landed claims', async () => {
    await client.query(down!);
    const before = await answers('down');
    await client.query(up!);
    const after = await answers('up');

    expect(after).toEqual(before);
    // What was compared is what a send answers: the payee named, a gone one not, the claim landed.
    expect(after.wire.map((row) => JSON.parse(row.text).counterpartyName)).toEqual([null, `Mara ${hostile}`, null, null, null]);
    expect(after.record).toEqual([{ status: 'Executed', response_status: 201, body: after.landed[0]!.text, landed: true, completed: true }]);
    expect(after.landed[0]!.none).toBeNull();
    expect(after.canonical).toHaveLength(values.length);
  });
});
