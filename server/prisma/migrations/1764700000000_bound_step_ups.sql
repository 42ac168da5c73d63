-- Up Migration
-- A step-up authorisation names the one payment it approves (dynamic linking, adr/0045):
-- the send it allows (its operationId), the account the money leaves, the amount and the
-- payee (a handle, or an IBAN in electronic form and its holder's name). A send spends it
-- only when all of them match. Rows from before have none and match no send.
-- The authorisations spent today are also the money that left the customer today (each
-- is spent in the transaction that moves its amount): the daily ceiling sums them.
ALTER TABLE step_up_authorizations
  ADD COLUMN operation       text,
  ADD COLUMN from_account_id uuid,
  ADD COLUMN amount_minor    bigint,
  ADD COLUMN payee_handle    text,
  ADD COLUMN payee_iban      text,
  ADD COLUMN payee_name      text;
CREATE INDEX step_up_authorizations_user_id_used_at_idx ON step_up_authorizations (user_id, used_at) WHERE used_at IS NOT NULL;

-- Down Migration
DROP INDEX step_up_authorizations_user_id_used_at_idx;
ALTER TABLE step_up_authorizations
  DROP COLUMN operation, DROP COLUMN from_account_id, DROP COLUMN amount_minor,
  DROP COLUMN payee_handle, DROP COLUMN payee_iban, DROP COLUMN payee_name;
