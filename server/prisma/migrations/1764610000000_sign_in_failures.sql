-- Up Migration
-- Failed sign-ins, shared by every API process and kept across restarts (adr/0012): one
-- row per refused password, counted per email and address, per address, per email and in
-- all, within SIGN_IN_WINDOW_MS. The email is kept as its SHA-256 only: the table names
-- nobody who typed an address that is not theirs.
CREATE TABLE sign_in_failures (
  id         bigserial PRIMARY KEY,
  email_hash text NOT NULL,
  address    text NOT NULL,
  failed_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_email_hash_failed_at_idx ON sign_in_failures (email_hash, failed_at);
CREATE INDEX sign_in_failures_address_failed_at_idx ON sign_in_failures (address, failed_at);
CREATE INDEX sign_in_failures_failed_at_idx ON sign_in_failures (failed_at);

-- Down Migration
DROP TABLE sign_in_failures;
