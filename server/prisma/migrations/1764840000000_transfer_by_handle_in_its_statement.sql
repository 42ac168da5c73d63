-- Up Migration
-- A transfer by handle is one statement and one commit too (adr/0079): `money_send_claiming`
-- takes an order with `toHandle` and no `toAccountId` and, after the key's claim, does in the
-- order adr/0064 fixes what the API did in statements of its own before:
--   1. the send's rules without its payee (`money_send` check-only): the step-up
--      authorisation, the account's ownership, funds, the day's ceiling;
--   2. the payee look-up counted against the customer's window (`count_payee_lookup`,
--      `p_lookup_limit` per `p_lookup_window_ms`): over the limit, 'TOO_MANY_REQUESTS' having counted
--      nothing; else one row, which stays even when the send is then refused (a handle that
--      does not exist counts too);
--   3. the handle read: 'PAYEE_NOT_FOUND' (`detail.handle`), 'PAYEE_HAS_NO_OPEN_ACCOUNT',
--      'SAME_ACCOUNT' (the payee's primary account is the one the money leaves);
--   4. `money_send` with the payee's primary account as `toAccountId`.
-- Every verdict after step 2 carries the window in `detail` (`lookupsBefore`: the look-ups
-- counted before this one; `lookupsClearIn`: seconds until the oldest leaves the window), for
-- the answer's RateLimit fields and the 429's Retry-After.

-- The payee limit's one rule, for a send by handle here and for `getPayee` (payeeLookups.ts):
-- the look-ups of the window before this one, and, under the limit, this one counted (a row
-- in payee_lookups); at or over it, nothing counted. `clears_in`: seconds until the oldest
-- leaves the window (the whole window when there is none). A customer's look-ups are counted
-- one at a time, under their row's lock (the lock a send that leaves them takes anyway):
-- two counted at once would each see the other's row missing and both pass the last one.
CREATE FUNCTION count_payee_lookup(
  p_user uuid, p_limit integer, p_window_ms integer,
  OUT counted boolean, OUT lookups_before integer, OUT clears_in float8
) LANGUAGE plpgsql AS $$
DECLARE
  lookup_window interval := p_window_ms * interval '1 millisecond';
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR NO KEY UPDATE;
  SELECT count(*)::int, coalesce(extract(epoch FROM min(looked_up_at) + lookup_window - now())::float8, p_window_ms / 1000.0)
  INTO lookups_before, clears_in
  FROM payee_lookups WHERE user_id = p_user AND looked_up_at > now() - lookup_window;
  counted := lookups_before < p_limit;
  IF counted THEN
    INSERT INTO payee_lookups (user_id) VALUES (p_user);
    -- Old rows are of no use to any count: one look-up in a hundred sweeps the customer's.
    IF random() < 0.01 THEN
      DELETE FROM payee_lookups WHERE user_id = p_user AND looked_up_at < now() - lookup_window;
    END IF;
  END IF;
END
$$;

DROP FUNCTION money_send_claiming(uuid, uuid, uuid, text, text, text, integer, text, text, bigint, jsonb);
CREATE FUNCTION money_send_claiming(
  p_claim uuid, p_owner uuid, p_user uuid, p_key text, p_operation text, p_request_hash text, p_stale_ms integer,
  p_trace text, p_lock_wait text, p_daily_limit bigint, p_order jsonb, p_lookup_limit integer, p_lookup_window_ms integer,
  OUT verdict text, OUT body jsonb, OUT detail jsonb
) LANGUAGE plpgsql AS $$
DECLARE
  claimed record;
  taken_over boolean := false;
  send_order jsonb := p_order;
  lookup record;
  window_detail jsonb;
  payee_found boolean;
  payee_account uuid;
BEGIN
  SELECT * INTO claimed FROM claim_key(p_claim, p_owner, p_user, p_key, p_operation, p_request_hash, p_stale_ms);
  -- The record went between claim_key's insert and its read: once more (this transaction holds the key's lock
  -- already), then the key is another request's, in flight.
  IF claimed.verdict = 'released' THEN
    SELECT * INTO claimed FROM claim_key(p_claim, p_owner, p_user, p_key, p_operation, p_request_hash, p_stale_ms);
    IF claimed.verdict = 'released' THEN
      claimed.verdict := 'in_flight';
    END IF;
  END IF;
  IF claimed.verdict = 'stale' THEN
    UPDATE idempotency_records SET id = p_claim, owner_token = p_owner, claimed_at = now()
    WHERE id = claimed.record_id AND status = 'Processing' AND landed_at IS NULL AND request_hash = p_request_hash
      AND claimed_at <= now() - p_stale_ms * interval '1 millisecond';
    taken_over := FOUND;
    claimed.verdict := CASE WHEN FOUND THEN 'claimed' ELSE 'in_flight' END;
  END IF;
  IF claimed.verdict <> 'claimed' THEN
    verdict := claimed.verdict;
    body := claimed.body;
    detail := jsonb_build_object('status', claimed.status);
    RETURN;
  END IF;

  IF p_order->>'toHandle' IS NOT NULL AND p_order->>'toAccountId' IS NULL THEN
    SELECT s.verdict, s.detail INTO verdict, detail
    FROM money_send(p_claim, p_owner, p_user, p_key, p_trace, p_lock_wait, true, p_daily_limit, p_order) s;
    IF verdict <> 'ok' THEN
      RETURN;
    END IF;
    SELECT * INTO lookup FROM count_payee_lookup(p_user, p_lookup_limit, p_lookup_window_ms);
    window_detail := jsonb_build_object('lookupsBefore', lookup.lookups_before, 'lookupsClearIn', lookup.clears_in);
    IF NOT lookup.counted THEN
      verdict := 'TOO_MANY_REQUESTS';
      detail := window_detail;
      RETURN;
    END IF;
    SELECT primary_account_id INTO payee_account FROM users WHERE handle = p_order->>'toHandle';
    payee_found := FOUND;
    verdict := CASE
      WHEN NOT payee_found THEN 'PAYEE_NOT_FOUND'
      WHEN payee_account IS NULL THEN 'PAYEE_HAS_NO_OPEN_ACCOUNT'
      WHEN payee_account = (p_order->>'fromAccountId')::uuid THEN 'SAME_ACCOUNT'
    END;
    IF verdict IS NOT NULL THEN
      detail := window_detail || CASE WHEN verdict = 'PAYEE_NOT_FOUND' THEN jsonb_build_object('handle', p_order->>'toHandle') ELSE '{}' END;
      RETURN;
    END IF;
    send_order := p_order || jsonb_build_object('toAccountId', payee_account);
  END IF;

  SELECT s.verdict, s.body, s.detail INTO verdict, body, detail
  FROM money_send(p_claim, p_owner, p_user, p_key, p_trace, p_lock_wait, false, p_daily_limit, send_order) s;
  IF taken_over AND verdict = 'applied' THEN
    detail := coalesce(detail, '{}') || jsonb_build_object('takenOver', true);
  END IF;
  IF window_detail IS NOT NULL THEN
    detail := coalesce(detail, '{}') || window_detail;
  END IF;
END
$$;

-- Down Migration
DROP FUNCTION money_send_claiming(uuid, uuid, uuid, text, text, text, integer, text, text, bigint, jsonb, integer, integer);
CREATE FUNCTION money_send_claiming(
  p_claim uuid, p_owner uuid, p_user uuid, p_key text, p_operation text, p_request_hash text, p_stale_ms integer,
  p_trace text, p_lock_wait text, p_daily_limit bigint, p_order jsonb,
  OUT verdict text, OUT body jsonb, OUT detail jsonb
) LANGUAGE plpgsql AS $$
DECLARE
  claimed record;
  taken_over boolean := false;
BEGIN
  SELECT * INTO claimed FROM claim_key(p_claim, p_owner, p_user, p_key, p_operation, p_request_hash, p_stale_ms);
  IF claimed.verdict = 'released' THEN
    SELECT * INTO claimed FROM claim_key(p_claim, p_owner, p_user, p_key, p_operation, p_request_hash, p_stale_ms);
    IF claimed.verdict = 'released' THEN
      claimed.verdict := 'in_flight';
    END IF;
  END IF;
  IF claimed.verdict = 'stale' THEN
    UPDATE idempotency_records SET id = p_claim, owner_token = p_owner, claimed_at = now()
    WHERE id = claimed.record_id AND status = 'Processing' AND landed_at IS NULL AND request_hash = p_request_hash
      AND claimed_at <= now() - p_stale_ms * interval '1 millisecond';
    taken_over := FOUND;
    claimed.verdict := CASE WHEN FOUND THEN 'claimed' ELSE 'in_flight' END;
  END IF;
  IF claimed.verdict <> 'claimed' THEN
    verdict := claimed.verdict;
    body := claimed.body;
    detail := jsonb_build_object('status', claimed.status);
    RETURN;
  END IF;
  SELECT s.verdict, s.body, s.detail INTO verdict, body, detail
  FROM money_send(p_claim, p_owner, p_user, p_key, p_trace, p_lock_wait, false, p_daily_limit, p_order) s;
  IF taken_over AND verdict = 'applied' THEN
    detail := jsonb_build_object('takenOver', true);
  END IF;
END
$$;
DROP FUNCTION count_payee_lookup(uuid, integer, integer);
