-- On PostgreSQL the items' version is kept in 64 rows, and a change bumps its connection's
-- (see the migration there). SQLite has one writer, which never waits for another: it keeps
-- the one row, always its own.
CREATE VIEW item_version_stripe AS SELECT 1 AS stripe;
