-- Closing account takeover and mail bombing paths.

-- The mailbox a message about an account is really delivered to (quotes and escapes
-- undone, case folded, a +tag dropped): the per-address limit counts this, not a spelling.
ALTER TABLE account_mail ADD COLUMN mailbox TEXT;
UPDATE account_mail SET mailbox = lower(address);
CREATE INDEX account_mail_by_mailbox ON account_mail (mailbox, created_at);
DROP INDEX account_mail_by_address;

-- Ids of removed accounts, folded (and ids that imported reports name without an account):
-- nobody may take one again, or they would hold the reports still filed under it.
CREATE TABLE retired_ids (
    id_key     TEXT PRIMARY KEY,
    retired_at BIGINT NOT NULL
);
-- Reports of accounts removed before this kept their ids: those ids are retired now.
INSERT INTO retired_ids (id_key, retired_at)
    SELECT DISTINCT lower(created_by), 0 FROM items
    WHERE NOT EXISTS (SELECT 1 FROM users WHERE lower(users.id) = lower(items.created_by));

-- An account linked to single sign-on signs in there only: a password it was given by a
-- reset link before goes.
UPDATE users SET password_hash = '!' WHERE oidc_subject IS NOT NULL;
