-- Up Migration
-- The bank's first tables: people, their sessions, accounts, the ledger, idempotency
-- claims, the audit chain and step-up authorisations. Amounts are integer minor units.

CREATE TABLE users (
  id                  uuid PRIMARY KEY,
  email               text NOT NULL UNIQUE,
  display_name        text NOT NULL,
  handle              text NOT NULL UNIQUE,
  password_hash       text NOT NULL,
  pin_hash            text NOT NULL,
  pin_failed_attempts integer NOT NULL DEFAULT 0,
  pin_locked_until    timestamptz(3),
  primary_account_id  uuid,
  created_at          timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE refresh_tokens (
  id          uuid PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash  text NOT NULL UNIQUE,
  family_id   uuid NOT NULL,
  expires_at  timestamptz(3) NOT NULL,
  revoked_at  timestamptz(3),
  replaced_by uuid,
  created_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_user_id_idx ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_family_id_idx ON refresh_tokens (family_id);

CREATE TABLE accounts (
  id            uuid PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name          text NOT NULL,
  currency      text NOT NULL DEFAULT 'EUR',
  balance_minor bigint NOT NULL DEFAULT 0 CHECK (balance_minor >= 0),
  status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  version       integer NOT NULL DEFAULT 0,
  opened_at     timestamptz(3) NOT NULL DEFAULT now(),
  closed_at     timestamptz(3)
);
CREATE INDEX accounts_user_id_idx ON accounts (user_id);

CREATE TABLE ledger_entries (
  id                  uuid PRIMARY KEY,
  account_id          uuid NOT NULL REFERENCES accounts(id),
  kind                text NOT NULL,
  amount_minor        bigint NOT NULL,
  balance_after_minor bigint NOT NULL CHECK (balance_after_minor >= 0),
  description         text,
  counterparty        text,
  idempotency_key     text,
  transfer_id         uuid,
  created_at          timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_account_id_created_at_id_idx ON ledger_entries (account_id, created_at, id);
CREATE INDEX ledger_entries_account_id_idempotency_key_idx ON ledger_entries (account_id, idempotency_key);

CREATE TABLE idempotency_records (
  id              uuid PRIMARY KEY,
  user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key             text NOT NULL,
  operation_id    text NOT NULL,
  request_hash    text NOT NULL,
  status          text NOT NULL CHECK (status IN ('Processing', 'Executed')),
  owner_token     uuid NOT NULL,
  response_status integer,
  response_body   jsonb,
  claimed_at      timestamptz(3) NOT NULL DEFAULT now(),
  completed_at    timestamptz(3)
);
CREATE UNIQUE INDEX idempotency_records_user_id_key_key ON idempotency_records (user_id, key);

CREATE TABLE audit_rows (
  id              bigserial PRIMARY KEY,
  account_id      uuid NOT NULL REFERENCES accounts(id),
  seq             integer NOT NULL,
  action          text NOT NULL,
  payload         jsonb NOT NULL,
  ledger_entry_id uuid,
  trace_id        text,
  prev_hash       text NOT NULL,
  hash            text NOT NULL,
  created_at      timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX audit_rows_account_id_seq_key ON audit_rows (account_id, seq);

CREATE TABLE step_up_authorizations (
  id         uuid PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at timestamptz(3) NOT NULL,
  used_at    timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX step_up_authorizations_user_id_idx ON step_up_authorizations (user_id);

-- Down Migration
DROP TABLE step_up_authorizations;
DROP TABLE audit_rows;
DROP TABLE idempotency_records;
DROP TABLE ledger_entries;
DROP TABLE accounts;
DROP TABLE refresh_tokens;
DROP TABLE users;
