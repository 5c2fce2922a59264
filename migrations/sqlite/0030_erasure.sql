-- A person's erasure of their account: the account goes (sessions, notices, tokens with it),
-- and what the office must keep — reports, claims and their handover, messages — stays under
-- a new account with no name, address or password, marked with when the erasure happened.
ALTER TABLE users ADD COLUMN erased_at INTEGER;
