-- Up Migration
-- The wire's Account built in one place (issue 51 item 6, adr/0076): `open_account` built it
-- in SQL for the answer it stores, and domain/wireViews.ts built it again in TypeScript for
-- every read. `wire_account` is now the one view, used by the opening and by every read and
-- change of an account; `p_primary` is the owner's primary account as the caller knows it
-- (a change that moves the primary passes the one it leaves in place).
CREATE FUNCTION wire_account(a accounts, p_primary uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', a.id, 'name', a.name, 'currency', a.currency, 'balanceMinor', a.balance_minor,
    'status', a.status, 'isPrimary', coalesce(a.id = p_primary, false), 'openedAt', wire_time(a.opened_at),
    'closedAt', wire_time(a.closed_at), 'idempotencyKey', a.idempotency_key)
$$;

-- `open_account` redefined from its stored text with its hand-built body replaced (adr/0041
-- holds its rules), as 1764760000000_applied_verdict.sql did: a new account is never the primary.
DO $$
DECLARE
  f regprocedure := 'open_account(uuid, uuid, uuid, text, text, text, integer)'::regprocedure;
  old_text text := pg_get_functiondef(f);
  new_text text := replace(old_text, $r$body := jsonb_build_object('id', opened.id, 'name', opened.name, 'currency', opened.currency,
    'balanceMinor', opened.balance_minor, 'status', opened.status, 'isPrimary', false, 'openedAt', wire_time(opened.opened_at),
    'closedAt', NULL, 'idempotencyKey', opened.idempotency_key);$r$, $r$body := wire_account(opened, NULL);$r$);
BEGIN
  IF new_text = old_text THEN
    RAISE EXCEPTION 'open_account has no hand-built body to replace';
  END IF;
  EXECUTE new_text;
END
$$;

-- Down Migration
DO $$
DECLARE
  f regprocedure := 'open_account(uuid, uuid, uuid, text, text, text, integer)'::regprocedure;
BEGIN
  EXECUTE replace(pg_get_functiondef(f), $r$body := wire_account(opened, NULL);$r$, $r$body := jsonb_build_object('id', opened.id, 'name', opened.name, 'currency', opened.currency,
    'balanceMinor', opened.balance_minor, 'status', opened.status, 'isPrimary', false, 'openedAt', wire_time(opened.opened_at),
    'closedAt', NULL, 'idempotencyKey', opened.idempotency_key);$r$);
END
$$;
DROP FUNCTION wire_account(accounts, uuid);
