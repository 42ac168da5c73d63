-- Up Migration
-- Every money send is one statement, its own commit, and its rules live here, written once
-- (adr/0041): `money_send` for deposits, withdrawals and transfers, `open_account` for an
-- opening. Each answers a verdict: 'moved' (with the 201 body it landed with the claim),
-- 'claim_lost' (the claim is no longer this request's: nothing moved), 'ok' (a look that
-- only checks, before a busy answer: the rules allow it), or the code of the rule that
-- refuses it (with `detail` for the numbers its wording needs). The API words the code.

-- A text as canonicalJson spells it (adr/0010): to_json escapes what JSON.stringify escapes
-- for every text the validator lets in (no control characters, no lone surrogates).
CREATE FUNCTION json_text(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(to_json(value)::text, 'null')
$$;

-- One movement on an account the caller has locked and read (`head`): the balance, the ledger
-- row, and the audit row whose link is computed from the head read under that lock, over the canonical
-- content auditChain.ts hashes (keys sorted, no whitespace), so the chain cannot fork and
-- `npm run audit:verify` checks it like any other row.
CREATE FUNCTION post_movement(
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

-- A timestamp as the wire spells it (Date.toISOString: UTC, milliseconds, Z).
CREATE FUNCTION wire_time(at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- A ledger row as the wire's Transaction.
CREATE FUNCTION wire_transaction(e ledger_entries) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', e.id, 'accountId', e.account_id, 'kind', e.kind, 'amountMinor', e.amount_minor,
    'balanceAfterMinor', e.balance_after_minor, 'description', e.description, 'counterparty', e.counterparty,
    'idempotencyKey', e.idempotency_key, 'transferId', e.transfer_id, 'createdAt', wire_time(e.created_at))
$$;

-- Locks the claim this request owns, bounding this statement's lock waits; false when the
-- claim is gone (released, taken over, landed, or lost with a failover).
CREATE FUNCTION lock_claim(p_claim uuid, p_owner uuid, p_lock_wait text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('lock_timeout', p_lock_wait, true);
  PERFORM 1 FROM idempotency_records WHERE id = p_claim AND owner_token = p_owner AND status = 'Processing' AND landed_at IS NULL FOR UPDATE;
  RETURN FOUND;
END
$$;

-- Lands the locked claim with its 201 answer; answers the body as stored (jsonb's key order),
-- the bytes the first answer and every replay send.
CREATE FUNCTION land_claim(p_claim uuid, p_body jsonb) RETURNS jsonb LANGUAGE sql AS $$
  UPDATE idempotency_records SET landed_at = now(), status = 'Executed', response_status = 201, response_body = p_body, completed_at = now()
  WHERE id = p_claim RETURNING response_body
$$;

-- A deposit, withdrawal, transfer to an own account or by handle, or external transfer, as its
-- order says (one jsonb, so every send is the same statement text; domain/money/moneySend.ts):
-- money leaves `fromAccountId` (null for a deposit) and arrives in `toAccountId` (null for a
-- withdrawal or an external transfer). With `p_check_only` it locks and writes nothing: the
-- look before a busy answer, under the same rules.
CREATE FUNCTION money_send(
  p_claim uuid, p_owner uuid, p_user uuid, p_key text, p_trace text, p_lock_wait text, p_check_only boolean,
  p_daily_limit bigint, p_order jsonb,
  OUT verdict text, OUT body jsonb, OUT detail jsonb
) LANGUAGE plpgsql AS $$
DECLARE
  -- The most a balance may hold (spec `Balance.maximum`): just under 10^15.
  max_balance CONSTANT bigint := 999999999999999;
  -- The order's fields, named as parameters: they are the send's input.
  p_operation text := p_order->>'operation';
  p_from uuid := (p_order->>'fromAccountId')::uuid;
  p_to uuid := (p_order->>'toAccountId')::uuid;
  p_amount bigint := (p_order->>'amountMinor')::bigint;
  p_description text := p_order->>'description';
  p_to_handle text := p_order->>'toHandle';
  p_iban text := p_order->>'iban';
  p_beneficiary text := p_order->>'beneficiaryName';
  p_authorization uuid := (p_order->>'authorizationId')::uuid;
  by_handle boolean := p_operation = 'createInternalTransfer' AND p_to_handle IS NOT NULL;
  -- Money leaving the customer needs their PIN for this payment and counts against the day's ceiling (adr/0045).
  leaving boolean := p_operation IN ('withdraw', 'createExternalTransfer') OR by_handle;
  src accounts%ROWTYPE;
  dst accounts%ROWTYPE;
  auth step_up_authorizations%ROWTYPE;
  sender users%ROWTYPE;
  sent bigint;
  transfer uuid := gen_random_uuid();
  out_entry ledger_entries%ROWTYPE;
  in_entry ledger_entries%ROWTYPE;
BEGIN
  IF NOT p_check_only THEN
    IF NOT lock_claim(p_claim, p_owner, p_lock_wait) THEN
      verdict := 'claim_lost';
      RETURN;
    END IF;
    -- The customer before the accounts: parallel sends of one customer count the ceiling in turn.
    IF leaving THEN
      SELECT * INTO sender FROM users WHERE id = p_user FOR NO KEY UPDATE;
      SELECT * INTO auth FROM step_up_authorizations WHERE id = p_authorization FOR UPDATE;
    END IF;
    -- In id order: two transfers over one pair of accounts queue, never deadlock.
    PERFORM 1 FROM accounts WHERE id IN (p_from, p_to) ORDER BY id FOR UPDATE;
  ELSIF leaving THEN
    SELECT * INTO sender FROM users WHERE id = p_user;
    SELECT * INTO auth FROM step_up_authorizations WHERE id = p_authorization;
  END IF;

  IF leaving THEN
    IF auth.id IS NULL OR auth.user_id <> p_user OR auth.used_at IS NOT NULL THEN
      verdict := 'AUTHORIZATION_INVALID';
      RETURN;
    END IF;
    IF NOT coalesce(auth.operation = p_operation AND auth.from_account_id = p_from AND auth.amount_minor = p_amount
        AND auth.payee_handle IS NOT DISTINCT FROM p_to_handle AND auth.payee_iban IS NOT DISTINCT FROM p_iban
        AND auth.payee_name IS NOT DISTINCT FROM p_beneficiary, false) THEN
      verdict := 'AUTHORIZATION_MISMATCH';
      RETURN;
    END IF;
    IF auth.expires_at <= now() THEN
      verdict := 'AUTHORIZATION_EXPIRED';
      RETURN;
    END IF;
  END IF;

  IF p_from IS NOT NULL THEN
    SELECT * INTO src FROM accounts WHERE id = p_from;
    IF src.id IS NULL OR src.user_id <> p_user OR src.status <> 'open' THEN
      verdict := 'ACCOUNT_NOT_FOUND';
      RETURN;
    END IF;
  END IF;
  IF p_to IS NOT NULL THEN
    SELECT * INTO dst FROM accounts WHERE id = p_to;
    IF by_handle AND (dst.id IS NULL OR dst.status <> 'open') THEN
      verdict := 'PAYEE_HAS_NO_OPEN_ACCOUNT';
      RETURN;
    END IF;
    IF NOT by_handle AND (dst.id IS NULL OR dst.user_id <> p_user OR dst.status <> 'open') THEN
      verdict := 'ACCOUNT_NOT_FOUND';
      RETURN;
    END IF;
  END IF;
  IF p_from IS NOT NULL AND src.balance_minor < p_amount THEN
    verdict := 'INSUFFICIENT_FUNDS';
    RETURN;
  END IF;
  IF p_to IS NOT NULL AND dst.balance_minor + p_amount > max_balance THEN
    verdict := 'BALANCE_LIMIT_EXCEEDED';
    RETURN;
  END IF;
  IF leaving THEN
    -- What left the customer today (UTC): the authorisations spent today, each bound to its amount.
    SELECT coalesce(sum(amount_minor), 0) INTO sent FROM step_up_authorizations
    WHERE user_id = p_user AND used_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    IF sent + p_amount > p_daily_limit THEN
      verdict := 'DAILY_LIMIT_EXCEEDED';
      detail := jsonb_build_object('limitMinor', p_daily_limit, 'leftMinor', greatest(p_daily_limit - sent, 0));
      RETURN;
    END IF;
  END IF;
  IF p_check_only THEN
    verdict := 'ok';
    RETURN;
  END IF;

  IF leaving THEN
    UPDATE step_up_authorizations SET used_at = now() WHERE id = p_authorization;
  END IF;
  CASE p_operation
  WHEN 'deposit' THEN
    in_entry := post_movement(dst, 'deposit', p_amount, p_description, NULL, p_key, NULL, p_owner, p_trace);
    body := wire_transaction(in_entry);
  WHEN 'withdraw' THEN
    out_entry := post_movement(src, 'withdrawal', -p_amount, p_description, NULL, p_key, NULL, p_owner, p_trace);
    body := wire_transaction(out_entry);
  WHEN 'createInternalTransfer' THEN
    out_entry := post_movement(src, 'transfer_out', -p_amount, p_description,
      CASE WHEN by_handle THEN '@' || p_to_handle ELSE dst.name END, p_key, transfer, p_owner, p_trace);
    -- The sender's key is written on the sender's own accounts only.
    in_entry := post_movement(dst, 'transfer_in', p_amount, p_description,
      CASE WHEN by_handle THEN '@' || sender.handle ELSE src.name END, CASE WHEN dst.user_id = p_user THEN p_key END, transfer, p_owner, p_trace);
    body := jsonb_build_object('id', transfer, 'fromAccountId', p_from, 'toAccountId', CASE WHEN dst.user_id = p_user THEN p_to END,
      'toHandle', p_to_handle, 'iban', NULL, 'beneficiaryName', NULL, 'amountMinor', p_amount, 'createdAt', wire_time(out_entry.created_at),
      'movements', CASE WHEN dst.user_id = p_user THEN jsonb_build_array(wire_transaction(out_entry), wire_transaction(in_entry))
                        ELSE jsonb_build_array(wire_transaction(out_entry)) END);
  WHEN 'createExternalTransfer' THEN
    out_entry := post_movement(src, 'external_out', -p_amount, p_description, p_beneficiary || ' (' || p_iban || ')', p_key, transfer, p_owner, p_trace);
    body := jsonb_build_object('id', transfer, 'fromAccountId', p_from, 'toAccountId', NULL, 'toHandle', NULL, 'iban', p_iban,
      'beneficiaryName', p_beneficiary, 'amountMinor', p_amount, 'createdAt', wire_time(out_entry.created_at),
      'movements', jsonb_build_array(wire_transaction(out_entry)));
  END CASE;
  verdict := 'moved';
  body := land_claim(p_claim, body);
END
$$;

-- Opening an account, under a claim (NULL without a key): at most `p_max_open` open accounts per customer, counted
-- with the customer's row locked so that parallel openings count in turn. A new account is
-- never the primary one (the customer's first account is opened at sign-up).
CREATE FUNCTION open_account(
  p_claim uuid, p_owner uuid, p_user uuid, p_key text, p_name text, p_lock_wait text, p_max_open integer,
  OUT verdict text, OUT body jsonb, OUT detail jsonb
) LANGUAGE plpgsql AS $$
DECLARE
  opened accounts%ROWTYPE;
BEGIN
  IF p_claim IS NOT NULL AND NOT lock_claim(p_claim, p_owner, p_lock_wait) THEN
    verdict := 'claim_lost';
    RETURN;
  END IF;
  PERFORM set_config('lock_timeout', p_lock_wait, true);
  PERFORM 1 FROM users WHERE id = p_user FOR NO KEY UPDATE;
  IF (SELECT count(*) FROM accounts WHERE user_id = p_user AND status = 'open') >= p_max_open THEN
    verdict := 'ACCOUNT_LIMIT_REACHED';
    detail := jsonb_build_object('maxOpen', p_max_open);
    RETURN;
  END IF;
  INSERT INTO accounts (id, user_id, name, idempotency_key) VALUES (gen_random_uuid(), p_user, p_name, p_key) RETURNING * INTO opened;
  verdict := 'moved';
  body := jsonb_build_object('id', opened.id, 'name', opened.name, 'currency', opened.currency,
    'balanceMinor', opened.balance_minor, 'status', opened.status, 'isPrimary', false, 'openedAt', wire_time(opened.opened_at),
    'closedAt', NULL, 'idempotencyKey', opened.idempotency_key);
  IF p_claim IS NOT NULL THEN
    body := land_claim(p_claim, body);
  END IF;
END
$$;

-- Down Migration
DROP FUNCTION open_account(uuid, uuid, uuid, text, text, text, integer);
DROP FUNCTION money_send(uuid, uuid, uuid, text, text, text, boolean, bigint, jsonb);
DROP FUNCTION land_claim(uuid, jsonb);
DROP FUNCTION lock_claim(uuid, uuid, text);
DROP FUNCTION wire_transaction(ledger_entries);
DROP FUNCTION wire_time(timestamptz);
DROP FUNCTION post_movement(accounts, text, bigint, text, text, text, uuid, uuid, text);
DROP FUNCTION json_text(text);
