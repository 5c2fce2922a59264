-- Visitors without an account whose lost reports staff take at the desk: an account made for
-- their address, marked as a visitor's (it has no password, and follows its reports by a
-- mailed link), with the phone number the desk may call; and links of a third purpose,
-- `follow`. SQLite cannot change a CHECK, so the tokens' table is made again.
ALTER TABLE users ADD COLUMN visitor BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN phone TEXT;
CREATE TABLE account_tokens_new (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('verify', 'reset', 'follow')),
    email      TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
INSERT INTO account_tokens_new SELECT token_hash, user_id, purpose, email, created_at, expires_at FROM account_tokens;
DROP TABLE account_tokens;
ALTER TABLE account_tokens_new RENAME TO account_tokens;
CREATE INDEX account_tokens_by_user ON account_tokens (user_id);
