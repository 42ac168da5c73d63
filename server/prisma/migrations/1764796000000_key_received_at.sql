-- Up Migration
-- When the bank first received a key, kept apart from `claimed_at`, which is the current
-- holder's claim time: staleness counts from it, a takeover renews it and the sandbox ages it
-- to make a claim stale in seconds. `claimedAt` on the wire (getIdempotencyKey) and the
-- key list's window read this column, so neither shows a time before the key was sent.
ALTER TABLE idempotency_records ADD COLUMN received_at timestamptz(3);
UPDATE idempotency_records SET received_at = claimed_at;
ALTER TABLE idempotency_records ALTER COLUMN received_at SET NOT NULL, ALTER COLUMN received_at SET DEFAULT now();

-- Down Migration
ALTER TABLE idempotency_records DROP COLUMN received_at;
