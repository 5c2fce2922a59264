-- The language each user reads (emails go out in it), and each notification's words as
-- catalog keys and values (`domain::Phrase`), so they can be said in it.
ALTER TABLE users ADD COLUMN lang TEXT;
ALTER TABLE notifications ADD COLUMN phrase TEXT;
