-- Limits under abuse: a login throttle that cannot lock the right person out, devices that
-- have logged in before, and a row the readiness check writes.

-- Which account (hashed) a throttle key counts for, so that unlocking an account finds them
-- all; and, for an account's key, the earliest time its next attempt may be checked.
ALTER TABLE login_attempts ADD COLUMN account TEXT;
ALTER TABLE login_attempts ADD COLUMN not_before BIGINT NOT NULL DEFAULT 0;
CREATE INDEX login_attempts_by_account ON login_attempts (account);

-- Browsers that logged in to an account before carry a device cookie; only its SHA-256 is
-- kept. Their attempts are counted per device instead of per address and account.
CREATE TABLE trusted_devices (
    token_hash   TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL
);
CREATE INDEX trusted_devices_by_user ON trusted_devices (user_id);

-- /readyz commits a write here: a database that refuses writes (read-only, full) is not ready.
CREATE TABLE readiness_probe (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at BIGINT NOT NULL
);
