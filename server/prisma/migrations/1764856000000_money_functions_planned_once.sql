-- Up Migration
-- A deposit's statement costs PostgreSQL less CPU, every answer, row and audit hash the same
-- bytes (issue 51; bench/METHOD.md, "limit"). PostgreSQL (15 and 17, here) plans a LANGUAGE sql function
-- that it cannot inline afresh in every transaction that calls it from PL/pgSQL, where a
-- PL/pgSQL function's statements are planned once per connection: `wire_transaction` (its
-- payee-name subquery keeps it from being inlined) and `land_claim` (an UPDATE) took about
-- 200 µs and 160 µs of a deposit's 960, measured with `track_functions = 'all'`
-- (bench/profile/functionCpu.ts). Each is now PL/pgSQL, its text otherwise as before.
-- `canonical_json` no longer calls itself for a scalar member (a string, number, boolean or
-- null spells as its own text): a deposit's audit hash took 16 calls, now 2.

-- The payee's name is read in a statement of its own, only for a counterparty that is a handle:
-- the answer's expression then holds no subquery, and PL/pgSQL evaluates it without the executor.
CREATE OR REPLACE FUNCTION wire_transaction(e ledger_entries) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  counterparty_name text;
BEGIN
  IF left(e.counterparty, 1) = '@' THEN
    SELECT display_name INTO counterparty_name FROM users WHERE handle = substr(e.counterparty, 2);
  END IF;
  RETURN jsonb_build_object('id', e.id, 'accountId', e.account_id, 'kind', e.kind, 'amountMinor', e.amount_minor,
    'balanceAfterMinor', e.balance_after_minor, 'description', e.description, 'counterparty', e.counterparty,
    'counterpartyName', counterparty_name,
    'idempotencyKey', e.idempotency_key, 'transferId', e.transfer_id, 'createdAt', wire_time(e.created_at));
END
$$;

CREATE OR REPLACE FUNCTION land_claim(p_claim uuid, p_body jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  landed jsonb;
BEGIN
  UPDATE idempotency_records SET landed_at = now(), status = 'Executed', response_status = 201, response_body = p_body, completed_at = now()
  WHERE id = p_claim RETURNING response_body INTO landed;
  RETURN landed;
END
$$;

-- The canonical JSON text of a jsonb value: an object's or an array's members each spelled by
-- this function when they are objects or arrays, else as their own text.
CREATE OR REPLACE FUNCTION canonical_json(value jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  CASE jsonb_typeof(value)
  WHEN 'object' THEN
    RETURN '{' || coalesce((SELECT string_agg(to_json(k)::text || ':' || CASE WHEN jsonb_typeof(v) IN ('object', 'array') THEN canonical_json(v) ELSE v::text END, ',' ORDER BY k COLLATE "C")
                            FROM jsonb_each(value) AS member(k, v)), '') || '}';
  WHEN 'array' THEN
    RETURN '[' || coalesce((SELECT string_agg(CASE WHEN jsonb_typeof(v) IN ('object', 'array') THEN canonical_json(v) ELSE v::text END, ',' ORDER BY i)
                            FROM jsonb_array_elements(value) WITH ORDINALITY AS item(v, i)), '') || ']';
  ELSE
    RETURN value::text;
  END CASE;
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION canonical_json(value jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  CASE jsonb_typeof(value)
  WHEN 'object' THEN
    RETURN '{' || coalesce((SELECT string_agg(to_json(k)::text || ':' || canonical_json(v), ',' ORDER BY k COLLATE "C")
                            FROM jsonb_each(value) AS member(k, v)), '') || '}';
  WHEN 'array' THEN
    RETURN '[' || coalesce((SELECT string_agg(canonical_json(v), ',' ORDER BY i)
                            FROM jsonb_array_elements(value) WITH ORDINALITY AS item(v, i)), '') || ']';
  ELSE
    RETURN value::text;
  END CASE;
END
$$;

CREATE OR REPLACE FUNCTION land_claim(p_claim uuid, p_body jsonb) RETURNS jsonb LANGUAGE sql AS $$
  UPDATE idempotency_records SET landed_at = now(), status = 'Executed', response_status = 201, response_body = p_body, completed_at = now()
  WHERE id = p_claim RETURNING response_body
$$;

CREATE OR REPLACE FUNCTION wire_transaction(e ledger_entries) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', e.id, 'accountId', e.account_id, 'kind', e.kind, 'amountMinor', e.amount_minor,
    'balanceAfterMinor', e.balance_after_minor, 'description', e.description, 'counterparty', e.counterparty,
    'counterpartyName', CASE WHEN left(e.counterparty, 1) = '@'
      THEN (SELECT display_name FROM users WHERE handle = substr(e.counterparty, 2)) END,
    'idempotencyKey', e.idempotency_key, 'transferId', e.transfer_id, 'createdAt', wire_time(e.created_at))
$$;
