-- Up Migration
-- Every money send claims its Idempotency-Key in its one statement (adr/0076): a send that
-- waited in the account bulkhead claims no key while it waits, and a stale claim (its
-- release failed) is taken over here, in the same statement, rather than in a write of its
-- own before the send. So `money_send_claiming` takes over what `claim_key` answers
-- 'stale' and claims once more what it answers 'released': it answers neither, and every
-- send that moves money is one commit.
-- A stale claim taken over keeps its record (the key's one row) under this request's claim
-- id and owner token: the statement lands it, and a look at a lost commit finds it by them.
-- The verdict of a send that took a claim over carries `detail.takenOver` (for the metric).
CREATE OR REPLACE FUNCTION money_send_claiming(
  p_claim uuid, p_owner uuid, p_user uuid, p_key text, p_operation text, p_request_hash text, p_stale_ms integer,
  p_trace text, p_lock_wait text, p_daily_limit bigint, p_order jsonb,
  OUT verdict text, OUT body jsonb, OUT detail jsonb
) LANGUAGE plpgsql AS $$
DECLARE
  claimed record;
  taken_over boolean := false;
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
  SELECT s.verdict, s.body, s.detail INTO verdict, body, detail
  FROM money_send(p_claim, p_owner, p_user, p_key, p_trace, p_lock_wait, false, p_daily_limit, p_order) s;
  IF taken_over AND verdict = 'applied' THEN
    detail := jsonb_build_object('takenOver', true);
  END IF;
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION money_send_claiming(
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
