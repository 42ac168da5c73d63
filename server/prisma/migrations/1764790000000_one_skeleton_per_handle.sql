-- Up Migration
-- One skeleton per handle, held by a UNIQUE index (adr/0064), so two sign-ups racing with
-- look-alike handles cannot both land (the check before the insert raced: issue 54 found
-- rc2f539l, rc2f5391 and rc2f539i all registered at once). The skeleton (Unicode TR39's
-- idea, for the handle alphabet a-z 0-9 _) now also drops separators and folds more
-- look-alike digits and doubled letters: lower case; `_` dropped; 1, i and l; 0 and o;
-- 3 and e; 4 and a; 5 and s; 7 and t; 8 and b; rn and m; vv and w; a letter repeated
-- counts once. So gr2f539_h, _gr2f539_h, gr2f539__h, gr2f539_hh and gr2f539h are one handle.
DROP INDEX users_handle_skeleton_idx;
ALTER TABLE users DROP COLUMN handle_skeleton;
CREATE OR REPLACE FUNCTION handle_skeleton(handle text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(replace(replace(translate(lower(handle), '1i034578_', 'lloeastb'), 'rn', 'm'), 'vv', 'w'), '(.)\1+', '\1', 'g') $$;
ALTER TABLE users ADD COLUMN handle_skeleton text GENERATED ALWAYS AS (handle_skeleton(handle)) STORED;
-- Customers who already share a skeleton keep their handles: the earliest holds it in the
-- index, the later ones are marked and stand outside it (no new handle can join them).
ALTER TABLE users ADD COLUMN handle_skeleton_shared boolean NOT NULL DEFAULT false;
UPDATE users u SET handle_skeleton_shared = true
WHERE EXISTS (SELECT 1 FROM users o WHERE o.handle_skeleton = u.handle_skeleton AND (o.created_at, o.id) < (u.created_at, u.id));
CREATE UNIQUE INDEX users_handle_skeleton_key ON users (handle_skeleton) WHERE NOT handle_skeleton_shared;

-- Down Migration
DROP INDEX users_handle_skeleton_key;
ALTER TABLE users DROP COLUMN handle_skeleton_shared;
ALTER TABLE users DROP COLUMN handle_skeleton;
CREATE OR REPLACE FUNCTION handle_skeleton(handle text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT replace(replace(translate(lower(handle), '1i0', 'llo'), 'rn', 'm'), 'vv', 'w') $$;
ALTER TABLE users ADD COLUMN handle_skeleton text GENERATED ALWAYS AS (handle_skeleton(handle)) STORED;
CREATE INDEX users_handle_skeleton_idx ON users (handle_skeleton);
