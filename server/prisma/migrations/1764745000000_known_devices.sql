-- Up Migration
-- Known devices (adr/0043): a device that signed in before holds a random token the bank
-- gave it; the bank keeps only its SHA-256, bound to its customer, with the address of its
-- last sign-in (an address this customer signed in from is theirs too). A sign-in that
-- presents a live one, which has not failed itself, is never delayed by others' failures.
CREATE TABLE known_devices (
  token_hash   text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address      text NOT NULL,
  last_used_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX known_devices_user_id_last_used_at_idx ON known_devices (user_id, last_used_at);

-- A failure that presented a device token names it: such a device is known no more.
ALTER TABLE sign_in_failures ADD COLUMN device_hash text;
CREATE INDEX sign_in_failures_device_hash_idx ON sign_in_failures (device_hash) WHERE device_hash IS NOT NULL;

-- Down Migration
DROP INDEX sign_in_failures_device_hash_idx;
ALTER TABLE sign_in_failures DROP COLUMN device_hash;
DROP TABLE known_devices;
