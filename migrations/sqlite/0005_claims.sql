-- Claims on found items: who says an item is theirs, with a private message proving it, and
-- what became of it. One open claim per claimant and item.
CREATE TABLE claims (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id    INTEGER NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    claimant   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    message    TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'rejected', 'withdrawn')),
    created_at INTEGER NOT NULL,
    decided_at INTEGER,
    decided_by TEXT
);
CREATE INDEX claims_by_item ON claims (item_id, id);
CREATE INDEX claims_by_claimant ON claims (claimant, id);
CREATE INDEX claims_by_status ON claims (status, id);
CREATE UNIQUE INDEX claims_open_once ON claims (item_id, claimant) WHERE status = 'open';
