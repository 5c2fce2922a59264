-- Notifications waiting to be emailed, queued in the transaction that writes them (only
-- while email is configured, and only for users with an address). A sender takes one by
-- moving `next_attempt_at` past its lease, so no other node takes it meanwhile; the row is
-- deleted once the SMTP server accepted the message, or given up.
CREATE TABLE mail_outbox (
    notification_id BIGINT PRIMARY KEY REFERENCES notifications (id) ON DELETE CASCADE,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    last_error      TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);
