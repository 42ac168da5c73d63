-- Up Migration
-- Money sends (issue 5): what the idempotency protocol, the audit chain and the
-- contention rules need beyond the first tables.
--
-- idempotency_records.landed_at: set by the money's own transaction when it fences its
--   claim (same commit as the ledger rows). A Processing claim with landed_at set moved
--   money whose answer was never stored: it is never taken over or released, and once
--   stale it answers 409 IDEMPOTENCY_RESULT_UNKNOWN with applied: true.
-- audit_rows.request_id: the request (its claim's owner token) that wrote the row, so an
--   audited save whose commit outcome is unknown can look for its own row.
-- accounts.audit_seq / audit_hash: the head of the account's audit chain, read with the
--   account's row lock, so appending to the chain needs no extra read and cannot fork.

ALTER TABLE idempotency_records ADD COLUMN landed_at timestamptz(3);

ALTER TABLE audit_rows ADD COLUMN request_id uuid;
CREATE INDEX audit_rows_request_id_idx ON audit_rows (request_id);
CREATE UNIQUE INDEX audit_rows_ledger_entry_id_key ON audit_rows (ledger_entry_id);

ALTER TABLE accounts ADD COLUMN audit_seq integer NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN audit_hash text NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000';

ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('deposit', 'withdrawal', 'transfer_in', 'transfer_out', 'external_out'));

-- Down Migration
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE accounts DROP COLUMN audit_hash;
ALTER TABLE accounts DROP COLUMN audit_seq;
DROP INDEX audit_rows_ledger_entry_id_key;
DROP INDEX audit_rows_request_id_idx;
ALTER TABLE audit_rows DROP COLUMN request_id;
ALTER TABLE idempotency_records DROP COLUMN landed_at;
