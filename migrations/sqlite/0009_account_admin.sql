-- A disabled account cannot log in; disabling it ends its sessions.
ALTER TABLE users ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE;
