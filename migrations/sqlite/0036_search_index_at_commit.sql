-- A new item's words go into the full-text index when its group commit ends, not when it is
-- written. FTS5 writes what it holds to disk as a segment of its own at every savepoint, and
-- every write of a group commit runs in one: each create made a segment, and the index merged
-- them again and again (a tenth of a create's CPU on the async threads). Now the insert only
-- notes the item here; the writer moves every noted item into the index in one statement
-- before each COMMIT (`store::writer`), in the same transaction, so no reader ever sees an
-- item its search cannot find.
CREATE TABLE items_fts_pending (id INTEGER PRIMARY KEY);

DROP TRIGGER items_fts_insert;
CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
    INSERT OR IGNORE INTO items_fts_pending (id) VALUES (new.id);
END;

-- An item still noted is not in the index: its new words go in at the commit, and a deleted
-- one only leaves the note.
DROP TRIGGER items_fts_update;
CREATE TRIGGER items_fts_update AFTER UPDATE OF search_words, place_words ON items
WHEN NOT EXISTS (SELECT 1 FROM items_fts_pending WHERE id = old.id) BEGIN
    INSERT INTO items_fts (items_fts, rowid, search_words, place_words)
    VALUES ('delete', old.id, old.search_words, old.place_words);
    INSERT INTO items_fts (rowid, search_words, place_words) VALUES (new.id, new.search_words, new.place_words);
END;

DROP TRIGGER items_fts_delete;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
    INSERT INTO items_fts (items_fts, rowid, search_words, place_words)
    SELECT 'delete', old.id, old.search_words, old.place_words
    WHERE NOT EXISTS (SELECT 1 FROM items_fts_pending WHERE id = old.id);
    DELETE FROM items_fts_pending WHERE id = old.id;
END;
