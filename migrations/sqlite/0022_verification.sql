-- Judging a claim: details only the owner would know, recorded at intake and private like the
-- finder; and each claim's own conversation between its claimant and the item's staff, never
-- in the item's public thread.
ALTER TABLE items ADD COLUMN verification TEXT;
CREATE TABLE claim_messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id   INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    author     TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX claim_messages_by_claim ON claim_messages (claim_id, id);
