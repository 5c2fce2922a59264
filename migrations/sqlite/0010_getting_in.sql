-- Getting in: accounts people make themselves, verified addresses, links sent by email,
-- single sign-on; the sessions that ended (every node's sockets follow them); and one table
-- of messages, so that each has an id of its own that staff can delete it by.

-- A sign-up cannot log in until its address is verified. `pending_email` is an address
-- waiting for its verification (a sign-up's, or a change of address); `email` is only ever
-- a verified one (or one staff set). `oidc_subject` links an account to its single sign-on
-- identity (the provider's `sub`).
ALTER TABLE users ADD COLUMN verified BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE users ADD COLUMN pending_email TEXT;
ALTER TABLE users ADD COLUMN oidc_subject TEXT;
CREATE UNIQUE INDEX users_by_oidc_subject ON users (oidc_subject);
CREATE INDEX users_by_email ON users (lower(email));
CREATE INDEX users_by_pending_email ON users (lower(pending_email));

-- Links sent by email (verify an address, set a password): only a SHA-256 of the token is
-- kept; each is used once, and expires.
CREATE TABLE account_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
    email      TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX account_tokens_by_user ON account_tokens (user_id);

-- Mail about an account (or, `user_id` NULL, about an address that has none), queued like
-- notifications and sent by the same senders. A link's token is made when the message is
-- sent, so no usable link is ever stored. Sent rows stay a day: they count towards the limit
-- of messages to one address.
CREATE TABLE account_mail (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         TEXT REFERENCES users (id) ON DELETE CASCADE,
    purpose         TEXT NOT NULL,
    address         TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT,
    sent_at         INTEGER
);
CREATE INDEX account_mail_due ON account_mail (next_attempt_at) WHERE sent_at IS NULL;
CREATE INDEX account_mail_by_address ON account_mail (lower(address), created_at);

-- Single sign-on logins on their way: the PKCE verifier and nonce of each, by its state.
CREATE TABLE oidc_logins (
    state_hash TEXT PRIMARY KEY,
    verifier   TEXT NOT NULL,
    nonce      TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- Sessions that ended (logout, a new password, a disabled or removed account, expiry), in
-- the order they did: every node reads on from the last it saw, and turns the sockets of
-- those sessions anonymous. Kept a few minutes.
CREATE TABLE ended_sessions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash TEXT NOT NULL,
    ended_at   INTEGER NOT NULL
);

CREATE TABLE messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id    INTEGER REFERENCES items (id) ON DELETE CASCADE,
    nick       TEXT NOT NULL,
    body       TEXT NOT NULL,
    user_id    TEXT,
    created_at INTEGER NOT NULL
);
INSERT INTO messages (item_id, nick, body, user_id, created_at)
    SELECT NULL, nick, body, user_id, created_at FROM chat_messages ORDER BY id;
INSERT INTO messages (item_id, nick, body, user_id, created_at)
    SELECT item_id, nick, body, user_id, created_at FROM thread_messages ORDER BY id;
DROP TABLE chat_messages;
DROP TABLE thread_messages;
-- The chat is the messages without an item.
CREATE INDEX messages_by_room ON messages (item_id, id);
