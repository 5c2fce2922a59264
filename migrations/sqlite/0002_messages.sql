-- The global chat and one thread per item. `user_id` is the logged-in sender, if any;
-- the nick is self-declared. A thread goes with its item.

CREATE TABLE chat_messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    nick       TEXT NOT NULL,
    body       TEXT NOT NULL,
    user_id    TEXT,
    created_at INTEGER NOT NULL
);

CREATE TABLE thread_messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id    INTEGER NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    nick       TEXT NOT NULL,
    body       TEXT NOT NULL,
    user_id    TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX thread_messages_by_item ON thread_messages (item_id, id);
