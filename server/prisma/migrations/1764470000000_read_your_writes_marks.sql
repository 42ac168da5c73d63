-- Up Migration
-- Read-your-writes marks for several API processes: a user who wrote reads from the
-- primary until primary_until. No foreign key: a mark outliving its user is harmless.
CREATE TABLE read_your_writes_marks (
  user_id       uuid PRIMARY KEY,
  primary_until timestamptz(3) NOT NULL
);

-- Down Migration
DROP TABLE read_your_writes_marks;
