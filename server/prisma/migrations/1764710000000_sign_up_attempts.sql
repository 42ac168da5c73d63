-- Up Migration
-- Sign-up attempts, shared by every API process (adr/0045): one row per registration
-- tried, whatever its answer (a taken email included), counted per address and in all
-- within REGISTER_WINDOW_MS, so a flood of sign-ups meets 429 before any password is hashed.
CREATE TABLE sign_up_attempts (
  id           bigserial PRIMARY KEY,
  address      text NOT NULL,
  attempted_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX sign_up_attempts_address_attempted_at_idx ON sign_up_attempts (address, attempted_at);
CREATE INDEX sign_up_attempts_attempted_at_idx ON sign_up_attempts (attempted_at);

-- Down Migration
DROP TABLE sign_up_attempts;
