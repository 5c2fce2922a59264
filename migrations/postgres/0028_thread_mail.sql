-- When each person was last emailed about a reply in each item's thread: at most one such
-- email an hour per thread (the bell has every reply).
CREATE TABLE thread_mail (
    user_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    item_id   BIGINT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    mailed_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, item_id)
);
