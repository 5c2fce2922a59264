-- Categories the office marks sensitive: the public view of their items leaves out the
-- description and the photo (what a false claimant would need), which their reporters and
-- staff still see. Documents (ID cards, passports, bank cards) start marked.
ALTER TABLE categories ADD COLUMN sensitive BOOLEAN NOT NULL DEFAULT false;
UPDATE categories SET sensitive = true WHERE key = 'documents';
