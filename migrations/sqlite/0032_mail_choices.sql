-- Which kinds of notice each person does not want by email (the bell keeps them all): set in
-- My account, or by the one-click unsubscribe every such email carries (RFC 8058).
CREATE TABLE mail_optouts (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    PRIMARY KEY (user_id, kind)
);
-- Keys the service makes at its first start and keeps, shared by every node: `mail` signs
-- the unsubscribe links of emails.
CREATE TABLE service_keys (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
