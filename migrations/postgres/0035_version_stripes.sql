-- The items' version in 64 rows instead of one. Every change to an item took the next version
-- from the one row and held its lock until its commit was on disk, so the writes of every
-- connection on every node took turns at the fsync. A change now bumps the row of its
-- connection (its backend's process id modulo 64, `item_version_stripe`), and takes as its own
-- version that row's new value × 64 + the row's number: unique among all changes. The version
-- of every list is the rows' sum, which grows with every change. Each new row starts at the
-- one row's value, so every version given from now on is above every version given before.
ALTER TABLE item_list_version DROP CONSTRAINT item_list_version_id_check;
ALTER TABLE item_list_version ADD CONSTRAINT item_list_version_id_check CHECK (id BETWEEN 0 AND 63);
INSERT INTO item_list_version (id, version)
    SELECT stripe, (SELECT version FROM item_list_version WHERE id = 1)
    FROM generate_series(0, 63) AS stripe
    WHERE stripe <> 1;
CREATE VIEW item_version_stripe AS SELECT pg_backend_pid() % 64 AS stripe;
