-- From claim to hands: an accepted claim waits for its claimant at the desk; the handover
-- (who collected, which ID was checked, by whom, when), the post (the address, the fee and its
-- payment, the carrier and tracking number) or a cancellation with its reason ends it. SQLite
-- cannot change a CHECK, so the table is made again with the new states.
CREATE TABLE claims_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id       INTEGER NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    claimant      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    message       TEXT NOT NULL,
    status        TEXT NOT NULL
        CHECK (status IN ('open', 'accepted', 'rejected', 'withdrawn', 'collected', 'posted', 'cancelled')),
    created_at    INTEGER NOT NULL,
    decided_at    INTEGER,
    decided_by    TEXT,
    settled_at    INTEGER,
    settled_by    TEXT,
    collected_by  TEXT,
    id_checked    TEXT,
    cancel_reason TEXT,
    post_address      TEXT,
    post_requested_at INTEGER,
    post_fee          TEXT,
    post_fee_at       INTEGER,
    post_paid         TEXT,
    post_paid_at      INTEGER,
    post_paid_by      TEXT,
    post_carrier      TEXT,
    post_tracking     TEXT
);
-- What the previous release accepted was handed over at once.
INSERT INTO claims_new (id, item_id, claimant, message, status, created_at, decided_at, decided_by,
                        settled_at, settled_by)
SELECT id, item_id, claimant, message,
       CASE status WHEN 'accepted' THEN 'collected' ELSE status END,
       created_at, decided_at, decided_by,
       CASE status WHEN 'accepted' THEN decided_at END,
       CASE status WHEN 'accepted' THEN decided_by END
FROM claims;
DROP TABLE claims;
ALTER TABLE claims_new RENAME TO claims;
CREATE INDEX claims_by_item ON claims (item_id, id);
CREATE INDEX claims_by_claimant ON claims (claimant, id);
CREATE INDEX claims_by_status ON claims (status, id);
CREATE UNIQUE INDEX claims_open_once ON claims (item_id, claimant) WHERE status = 'open';
-- One claim at a time waits for pickup of an item.
CREATE UNIQUE INDEX claims_accepted_once ON claims (item_id) WHERE status = 'accepted';
