-- Up Migration
-- Handles a payer could mistake for one another are refused at sign-up (adr/0046): a
-- handle's skeleton (Unicode TR39's idea, for the handle alphabet a-z 0-9 _) folds the
-- characters that look alike (1, i and l; 0 and o; rn and m; vv and w), and no two
-- customers' handles may share one. The rule lives here once: the column is computed by
-- the function, and sign-up asks the same function of the handle it is given.
CREATE FUNCTION handle_skeleton(handle text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT replace(replace(translate(lower(handle), '1i0', 'llo'), 'rn', 'm'), 'vv', 'w') $$;
ALTER TABLE users ADD COLUMN handle_skeleton text GENERATED ALWAYS AS (handle_skeleton(handle)) STORED;
CREATE INDEX users_handle_skeleton_idx ON users (handle_skeleton);

-- Confirmation of payee: each look-up of a handle by a customer, counted per customer
-- within PAYEE_LOOKUP_WINDOW_MS, so the read cannot list who banks here.
CREATE TABLE payee_lookups (
  id           bigserial PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  looked_up_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX payee_lookups_user_id_looked_up_at_idx ON payee_lookups (user_id, looked_up_at);

-- Down Migration
DROP TABLE payee_lookups;
DROP INDEX users_handle_skeleton_idx;
ALTER TABLE users DROP COLUMN handle_skeleton;
DROP FUNCTION handle_skeleton(text);
