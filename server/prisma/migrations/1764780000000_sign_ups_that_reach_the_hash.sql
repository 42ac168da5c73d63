-- Up Migration
-- hashed: the attempt passed every check a refusal comes from (a weak PIN or password, a
-- reserved or taken handle, a taken email) and its password went to be hashed (adr/0064).
-- Only those count toward REGISTER_GLOBAL_LIMIT: a sign-up refused anyway costs the bank
-- nothing and must not spend everyone's budget; every attempt still counts for its address.
ALTER TABLE sign_up_attempts ADD COLUMN hashed boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE sign_up_attempts DROP COLUMN hashed;
