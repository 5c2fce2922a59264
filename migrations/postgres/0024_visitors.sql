-- Visitors without an account whose lost reports staff take at the desk: an account made for
-- their address, marked as a visitor's (it has no password, and follows its reports by a
-- mailed link), with the phone number the desk may call; and links of a third purpose,
-- `follow`.
ALTER TABLE users ADD COLUMN visitor BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN phone TEXT;
ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_purpose_check;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_purpose_check
    CHECK (purpose IN ('verify', 'reset', 'follow'));
