-- Where an item was lost or found, in words people read: a building, a room, a desk. Searched
-- with the title (it joins `search_words`), shown before the coordinates.
ALTER TABLE items ADD COLUMN place TEXT;
