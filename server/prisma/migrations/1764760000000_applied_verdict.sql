-- Up Migration
-- The verdict of a send or an opening that landed is 'applied', the API's own word for it
-- (`applied: true`; adr/0057): an opened account moved no money, so 'moved' was not true of
-- it. Only that word changes in `money_send` and `open_account` (adr/0041 holds their
-- rules): each is redefined from its stored text with the one assignment replaced, so this
-- file cannot drift from the definition it amends.
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOREACH f IN ARRAY ARRAY[
    'money_send(uuid, uuid, uuid, text, text, text, boolean, bigint, jsonb)'::regprocedure,
    'open_account(uuid, uuid, uuid, text, text, text, integer)'::regprocedure
  ] LOOP
    EXECUTE replace(pg_get_functiondef(f), $r$verdict := 'moved';$r$, $r$verdict := 'applied';$r$);
  END LOOP;
END
$$;

-- Down Migration
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOREACH f IN ARRAY ARRAY[
    'money_send(uuid, uuid, uuid, text, text, text, boolean, bigint, jsonb)'::regprocedure,
    'open_account(uuid, uuid, uuid, text, text, text, integer)'::regprocedure
  ] LOOP
    EXECUTE replace(pg_get_functiondef(f), $r$verdict := 'applied';$r$, $r$verdict := 'moved';$r$);
  END LOOP;
END
$$;
