-- What each user is told: their report changed, an approved item may be theirs, a claim of
-- theirs was decided; administrators: a claim arrived. Written in the transaction of the
-- change that causes it.
CREATE TABLE notifications (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type       TEXT NOT NULL,
    item_id    INTEGER,
    text       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    read       BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX notifications_by_user ON notifications (user_id, id);
