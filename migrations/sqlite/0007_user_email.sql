-- An address to send a user's notifications to by email; NULL: none.
ALTER TABLE users ADD COLUMN email TEXT;
