-- Up Migration
-- accounts.idempotency_key: the Idempotency-Key an account was opened with (adr/0048), so a
--   keyed opening whose answer was lost is found in the customer's accounts; NULL for an
--   account opened without one (the first account, an opening without a key).
-- An index on the key a transfer's stored answer carries as its id, so a customer reads a
--   transfer back by id from the answer its key stored with the money (adr/0048).
ALTER TABLE accounts ADD COLUMN idempotency_key text;
CREATE INDEX idempotency_records_user_id_answer_id_idx ON idempotency_records (user_id, (response_body ->> 'id'))
  WHERE operation_id IN ('createInternalTransfer', 'createExternalTransfer') AND response_status = 201;

-- Down Migration
DROP INDEX idempotency_records_user_id_answer_id_idx;
ALTER TABLE accounts DROP COLUMN idempotency_key;
