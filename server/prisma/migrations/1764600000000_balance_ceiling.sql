-- Up Migration
-- A balance never holds more than 999,999,999,999,999 minor units (the spec's
-- Balance.maximum, just under 10^15: every such number is exact in JSON). The API refuses
-- a send that would pass it (422 BALANCE_LIMIT_EXCEEDED); these checks make it impossible.
ALTER TABLE accounts ADD CONSTRAINT accounts_balance_ceiling CHECK (balance_minor <= 999999999999999);
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_balance_after_ceiling CHECK (balance_after_minor <= 999999999999999);

-- Down Migration
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_balance_after_ceiling;
ALTER TABLE accounts DROP CONSTRAINT accounts_balance_ceiling;
