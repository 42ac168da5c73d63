-- Up Migration
-- A send's answer carries `counterpartyName` as the listed movement does (issue 53): the
-- display name of the other customer on a transfer by handle, as the bank knows it when the
-- send lands, else null. The name is read inside the money statement, so the stored answer
-- (and every replay of it) holds the name at that moment; a listing reads it again.
CREATE OR REPLACE FUNCTION wire_transaction(e ledger_entries) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', e.id, 'accountId', e.account_id, 'kind', e.kind, 'amountMinor', e.amount_minor,
    'balanceAfterMinor', e.balance_after_minor, 'description', e.description, 'counterparty', e.counterparty,
    'counterpartyName', CASE WHEN left(e.counterparty, 1) = '@'
      THEN (SELECT display_name FROM users WHERE handle = substr(e.counterparty, 2)) END,
    'idempotencyKey', e.idempotency_key, 'transferId', e.transfer_id, 'createdAt', wire_time(e.created_at))
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION wire_transaction(e ledger_entries) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', e.id, 'accountId', e.account_id, 'kind', e.kind, 'amountMinor', e.amount_minor,
    'balanceAfterMinor', e.balance_after_minor, 'description', e.description, 'counterparty', e.counterparty,
    'idempotencyKey', e.idempotency_key, 'transferId', e.transfer_id, 'createdAt', wire_time(e.created_at))
$$;
