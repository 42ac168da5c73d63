-- Up Migration
-- The audit payload built once (issue 51, item 6): `post_movement` hashed a hand-written
-- spelling of the content beside the jsonb payload it stores. It now hashes the canonical
-- JSON of the content built from that same payload (`canonical_json`: keys sorted by code
-- point, no whitespace, as domain/idempotency/canonicalJson.ts spells it and
-- `npm run audit:verify` checks it), so the stored payload and the hashed one cannot differ.
-- The hashes are the same bytes as before for every row (json_text and a jsonb string both
-- escape through PostgreSQL's escape_json).

-- The canonical JSON text of a jsonb value.
CREATE FUNCTION canonical_json(value jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
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

CREATE OR REPLACE FUNCTION post_movement(
  head accounts, p_kind text, p_amount bigint, p_description text, p_counterparty text,
  p_key text, p_transfer uuid, p_request uuid, p_trace text
) RETURNS ledger_entries LANGUAGE plpgsql AS $$
DECLARE
  p_account uuid := head.id;
  entry ledger_entries%ROWTYPE;
  entry_id uuid := gen_random_uuid();
  balance_after bigint;
  seq integer;
  payload jsonb;
  hash text;
BEGIN
  balance_after := head.balance_minor + p_amount;
  seq := head.audit_seq + 1;
  payload := jsonb_build_object('kind', p_kind, 'amountMinor', p_amount::text, 'balanceAfterMinor', balance_after::text,
    'description', p_description, 'counterparty', p_counterparty, 'idempotencyKey', p_key, 'transferId', p_transfer::text);
  hash := encode(sha256(convert_to(head.audit_hash || chr(10) || canonical_json(jsonb_build_object(
    'accountId', p_account::text, 'action', p_kind, 'ledgerEntryId', entry_id::text, 'payload', payload,
    'requestId', p_request::text, 'seq', seq, 'traceId', p_trace)), 'UTF8')), 'hex');
  UPDATE accounts SET balance_minor = balance_after, version = version + 1, audit_seq = seq, audit_hash = hash WHERE id = p_account;
  INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, description, counterparty, idempotency_key, transfer_id, created_at)
  VALUES (entry_id, p_account, p_kind, p_amount, balance_after, p_description, p_counterparty, p_key, p_transfer, clock_timestamp())
  RETURNING * INTO entry;
  INSERT INTO audit_rows (account_id, seq, action, payload, ledger_entry_id, trace_id, request_id, prev_hash, hash)
  VALUES (p_account, seq, p_kind, payload, entry_id, p_trace, p_request, head.audit_hash, hash);
  RETURN entry;
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION post_movement(
  head accounts, p_kind text, p_amount bigint, p_description text, p_counterparty text,
  p_key text, p_transfer uuid, p_request uuid, p_trace text
) RETURNS ledger_entries LANGUAGE plpgsql AS $$
DECLARE
  p_account uuid := head.id;
  entry ledger_entries%ROWTYPE;
  entry_id uuid := gen_random_uuid();
  balance_after bigint;
  seq integer;
  payload jsonb;
  hash text;
BEGIN
  balance_after := head.balance_minor + p_amount;
  seq := head.audit_seq + 1;
  payload := jsonb_build_object('kind', p_kind, 'amountMinor', p_amount::text, 'balanceAfterMinor', balance_after::text,
    'description', p_description, 'counterparty', p_counterparty, 'idempotencyKey', p_key, 'transferId', p_transfer::text);
  hash := encode(sha256(convert_to(head.audit_hash || chr(10)
    || '{"accountId":' || json_text(p_account::text) || ',"action":' || json_text(p_kind)
    || ',"ledgerEntryId":' || json_text(entry_id::text)
    || ',"payload":{"amountMinor":' || json_text(p_amount::text) || ',"balanceAfterMinor":' || json_text(balance_after::text)
    || ',"counterparty":' || json_text(p_counterparty) || ',"description":' || json_text(p_description)
    || ',"idempotencyKey":' || json_text(p_key) || ',"kind":' || json_text(p_kind) || ',"transferId":' || json_text(p_transfer::text)
    || '},"requestId":' || json_text(p_request::text) || ',"seq":' || seq::text || ',"traceId":' || json_text(p_trace) || '}', 'UTF8')), 'hex');
  UPDATE accounts SET balance_minor = balance_after, version = version + 1, audit_seq = seq, audit_hash = hash WHERE id = p_account;
  INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, description, counterparty, idempotency_key, transfer_id, created_at)
  VALUES (entry_id, p_account, p_kind, p_amount, balance_after, p_description, p_counterparty, p_key, p_transfer, clock_timestamp())
  RETURNING * INTO entry;
  INSERT INTO audit_rows (account_id, seq, action, payload, ledger_entry_id, trace_id, request_id, prev_hash, hash)
  VALUES (p_account, seq, p_kind, payload, entry_id, p_trace, p_request, head.audit_hash, hash);
  RETURN entry;
END
$$;
DROP FUNCTION canonical_json(jsonb);
