-- Accounts, sessions, login throttle, items and their change log.
-- Timestamps are milliseconds since the Unix epoch, UTC.

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    is_admin      BOOLEAN NOT NULL DEFAULT FALSE,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL
);

-- Only a SHA-256 of the session id is stored.
CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_last_seen ON sessions (last_seen_at);

-- Login attempts per hashed key (an account id or a client address) in a fixed window.
CREATE TABLE login_attempts (
    throttle_key TEXT PRIMARY KEY,
    attempts     INTEGER NOT NULL,
    window_start INTEGER NOT NULL
);

CREATE TABLE items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    title         TEXT NOT NULL,
    descr         TEXT,
    cat           TEXT,
    img_data      TEXT,
    lat           REAL NOT NULL,
    lng           REAL NOT NULL,
    radius        REAL NOT NULL DEFAULT 0,
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    storage_place TEXT,
    created_at    INTEGER NOT NULL,
    created_by    TEXT NOT NULL
);
CREATE INDEX items_newest ON items (created_at DESC, id DESC);
CREATE INDEX items_by_status_newest ON items (status, created_at DESC, id DESC);

-- Every review action: who, when, and what changed (JSON). Kept after the item is deleted.
CREATE TABLE item_changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id    INTEGER NOT NULL,
    changed_by TEXT NOT NULL,
    changed_at INTEGER NOT NULL,
    change     TEXT NOT NULL
);
CREATE INDEX item_changes_by_item ON item_changes (item_id);
