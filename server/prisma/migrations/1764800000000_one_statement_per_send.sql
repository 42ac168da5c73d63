-- Up Migration
-- A money send is one statement and one commit (adr/0070): `money_send_claiming` claims the
-- Idempotency-Key, checks the rules, moves the money and lands the answer together; the
-- claim's conflict answers come from the same call. `claim_key` is the claim alone, for a
-- send that waits in the account bulkhead (it holds its claim while it waits) and for an
-- opening; both paths claim a key the same way, so its answers are written once.

-- The advisory lock a running claim holds on (customer, key), as one bigint.
CREATE FUNCTION key_lock(p_user uuid, p_key text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtextextended(p_user::text || '/' || p_key, 0)
$$;

-- Whether a statement claiming (customer, key) runs now: its claim is not committed yet, so
-- the key's read finds no record, but the key is in flight (pg_locks shows a bigint advisory
-- lock as its high and low 32 bits).
CREATE FUNCTION key_lock_held(p_user uuid, p_key text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 1
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND classid::text::bigint = (key_lock(p_user, p_key) >> 32) & 4294967295
      AND objid::text::bigint = key_lock(p_user, p_key) & 4294967295)
$$;

-- Claims `p_key` for the request that owns `p_owner`, or says what its record answers:
-- 'claimed'; 'in_flight' (another request holds it now, or its claim is not stale);
-- 'replay' (`status` and `body` as stored); 'reused' (another payload); 'result_unknown'
-- (money landed without its answer, stale); 'stale' (nothing landed: the caller may take
-- it over); 'released' (the record went between the insert and the read: claim again).
-- The transaction-scoped advisory try-lock on (customer, key) makes a request that finds
-- the key held by a running send answer at once, in flight, never wait for that send's
-- commit to learn it (a 409 while the first is running, as when the claim was a commit of
-- its own).
CREATE FUNCTION claim_key(
  p_claim uuid, p_owner uuid, p_user uuid, p_key text, p_operation text, p_request_hash text, p_stale_ms integer,
  OUT verdict text, OUT record_id uuid, OUT status integer, OUT body jsonb
) LANGUAGE plpgsql AS $$
DECLARE
  held idempotency_records%ROWTYPE;
BEGIN
  IF NOT pg_try_advisory_xact_lock(key_lock(p_user, p_key)) THEN
    verdict := 'in_flight';
    RETURN;
  END IF;
  INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token)
  VALUES (p_claim, p_user, p_key, p_operation, p_request_hash, 'Processing', p_owner)
  ON CONFLICT (user_id, key) DO NOTHING;
  IF FOUND THEN
    verdict := 'claimed';
    record_id := p_claim;
    RETURN;
  END IF;
  SELECT * INTO held FROM idempotency_records WHERE user_id = p_user AND key = p_key;
  record_id := held.id;
  IF held.id IS NULL THEN
    verdict := 'released';
  ELSIF held.request_hash <> p_request_hash THEN
    verdict := 'reused';
  ELSIF held.status = 'Executed' AND held.response_status IS NOT NULL AND held.response_body IS NOT NULL THEN
    verdict := 'replay';
    status := held.response_status;
    body := held.response_body;
  ELSIF held.claimed_at > now() - p_stale_ms * interval '1 millisecond' THEN
    verdict := 'in_flight';
  ELSIF held.landed_at IS NOT NULL OR held.status = 'Executed' THEN
    verdict := 'result_unknown';
  ELSE
    verdict := 'stale';
  END IF;
END
$$;

-- A money send under a key it claims in the same statement: `claim_key`, then `money_send`
-- (its rules, its movement and `land_claim`). Answers money_send's verdicts, or the claim's
-- when the key was not claimed ('in_flight', 'replay' with `detail` {status}, 'reused',
-- 'result_unknown', 'stale', 'released'), having written nothing. A refusal commits the
-- claim, Processing, for the API to store the refusal it words or to release it.
CREATE FUNCTION money_send_claiming(
  p_claim uuid, p_owner uuid, p_user uuid, p_key text, p_operation text, p_request_hash text, p_stale_ms integer,
  p_trace text, p_lock_wait text, p_daily_limit bigint, p_order jsonb,
  OUT verdict text, OUT body jsonb, OUT detail jsonb
) LANGUAGE plpgsql AS $$
DECLARE
  claimed record;
BEGIN
  SELECT * INTO claimed FROM claim_key(p_claim, p_owner, p_user, p_key, p_operation, p_request_hash, p_stale_ms);
  IF claimed.verdict <> 'claimed' THEN
    verdict := claimed.verdict;
    body := claimed.body;
    detail := jsonb_build_object('status', claimed.status);
    RETURN;
  END IF;
  SELECT s.verdict, s.body, s.detail INTO verdict, body, detail
  FROM money_send(p_claim, p_owner, p_user, p_key, p_trace, p_lock_wait, false, p_daily_limit, p_order) s;
END
$$;

-- Down Migration
DROP FUNCTION money_send_claiming(uuid, uuid, uuid, text, text, text, integer, text, text, bigint, jsonb);
DROP FUNCTION claim_key(uuid, uuid, uuid, text, text, text, integer);
DROP FUNCTION key_lock_held(uuid, text);
DROP FUNCTION key_lock(uuid, text);
