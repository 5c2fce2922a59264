-- Where each person's devices receive push messages (Web Push, RFC 8030): the endpoint their
-- browser's push service gave, and the keys a message is encrypted to (RFC 8291). An endpoint
-- belongs to one account: subscribed again from another, it moves there.
CREATE TABLE push_subscriptions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL UNIQUE,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
-- Notifications waiting to be pushed, one row per device, queued with their email (the same
-- kinds, the same throttle) and taken under a lease like the mail outbox.
CREATE TABLE push_outbox (
    notification_id INTEGER NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    subscription_id INTEGER NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    PRIMARY KEY (notification_id, subscription_id)
);
CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at);
