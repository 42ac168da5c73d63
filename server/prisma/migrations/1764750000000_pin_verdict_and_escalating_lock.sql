-- Up Migration
-- The step-up's PIN verdict in the database, one call per check (adr/0047): the API sends
-- the verifier a right PIN gives (an HMAC it made under the pepper, which the database never
-- sees), and the function counts, locks or clears under the user's row lock.
-- pin_locks: the locks of the current streak (adr/0047): the k-th lock lasts
-- lock_seconds * 2^(k-1) (at most memory_seconds), the locks_before_block-th blocks step-up
-- until a password sign-in; a streak whose last lock ended memory_seconds ago is forgotten.
ALTER TABLE users ADD COLUMN pin_locks integer NOT NULL DEFAULT 0;

-- checked: the part of the verifier the API checked against (its scheme, key id and salt, or
-- the whole old verifier); NULL, or a verifier that no longer starts with it, answers
-- 'stale' with the stored verifier and counts nothing. right: the verifier a right PIN gives
-- (NULL when the API knows the PIN is wrong). remade: the verifier to store on a right PIN.
-- verdict: 'right', 'wrong', 'locked' (wait_seconds), 'blocked', 'stale' or 'unknown'.
CREATE FUNCTION pin_verdict(p_user uuid, p_checked text, p_right text, p_remade text,
                            p_max_attempts int, p_lock_seconds int, p_locks_before_block int, p_memory_seconds int)
RETURNS TABLE (verdict text, attempts_left int, locks int, wait_seconds int, stored text)
LANGUAGE plpgsql AS $$
DECLARE
  u record;
  next_attempts int;
  prior_locks int;
  lock_for double precision;
BEGIN
  SELECT pin_hash, pin_failed_attempts, pin_locked_until, pin_locks INTO u FROM users WHERE id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown'::text, 0, 0, 0, NULL::text;
    RETURN;
  END IF;
  IF u.pin_locks >= p_locks_before_block THEN
    RETURN QUERY SELECT 'blocked'::text, 0, u.pin_locks, 0, NULL::text;
    RETURN;
  END IF;
  IF u.pin_locked_until > now() THEN
    RETURN QUERY SELECT 'locked'::text, 0, u.pin_locks, greatest(1, ceil(extract(epoch FROM u.pin_locked_until - now())))::int, NULL::text;
    RETURN;
  END IF;
  IF p_checked IS NULL OR NOT starts_with(u.pin_hash, p_checked) THEN
    RETURN QUERY SELECT 'stale'::text, 0, u.pin_locks, 0, u.pin_hash;
    RETURN;
  END IF;
  IF u.pin_hash = p_right THEN
    UPDATE users SET pin_failed_attempts = 0, pin_locked_until = NULL, pin_locks = 0, pin_hash = coalesce(p_remade, pin_hash)
    WHERE id = p_user;
    RETURN QUERY SELECT 'right'::text, p_max_attempts, 0, 0, NULL::text;
    RETURN;
  END IF;
  -- A count that reached the limit belongs to a lock that has ended: this failure starts a new run.
  next_attempts := CASE WHEN u.pin_failed_attempts >= p_max_attempts THEN 1 ELSE u.pin_failed_attempts + 1 END;
  IF next_attempts < p_max_attempts THEN
    UPDATE users SET pin_failed_attempts = next_attempts WHERE id = p_user;
    RETURN QUERY SELECT 'wrong'::text, p_max_attempts - next_attempts, u.pin_locks, 0, NULL::text;
    RETURN;
  END IF;
  prior_locks := CASE WHEN u.pin_locked_until IS NULL OR u.pin_locked_until < now() - p_memory_seconds * interval '1 second' THEN 0 ELSE u.pin_locks END;
  lock_for := least(p_lock_seconds * power(2, prior_locks), p_memory_seconds);
  UPDATE users SET pin_failed_attempts = next_attempts, pin_locks = prior_locks + 1,
    pin_locked_until = now() + lock_for * interval '1 second'
  WHERE id = p_user;
  IF prior_locks + 1 >= p_locks_before_block THEN
    RETURN QUERY SELECT 'blocked'::text, 0, prior_locks + 1, 0, NULL::text;
  ELSE
    RETURN QUERY SELECT 'locked'::text, 0, prior_locks + 1, greatest(1, ceil(lock_for))::int, NULL::text;
  END IF;
END;
$$;

-- Down Migration
DROP FUNCTION pin_verdict(uuid, text, text, text, int, int, int, int);
ALTER TABLE users DROP COLUMN pin_locks;
