-- Items at scale: kinds and hand-over, versions for conditional requests, folded words for
-- search, positions on the unit sphere for `near`, and photos stored apart from their item.
--
-- The derived columns (cat_key, search_words, place_words, geo_*) and the move of photos out
-- of `img_data` are filled by the service at start-up for rows made before this migration
-- (`derived_at IS NULL`): they need Rust (accent folding, trigonometry, image decoding).

ALTER TABLE items ADD COLUMN kind TEXT NOT NULL DEFAULT 'lost' CHECK (kind IN ('lost', 'found'));
ALTER TABLE items ADD COLUMN returned_at INTEGER;
ALTER TABLE items ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
-- The photo's version (a digest of its bytes); NULL when the item has no photo.
ALTER TABLE items ADD COLUMN photo_version TEXT;
-- The category in lower case, for `cat`.
ALTER TABLE items ADD COLUMN cat_key TEXT;
-- Folded words of title, description and category; of the storage place.
ALTER TABLE items ADD COLUMN search_words TEXT;
ALTER TABLE items ADD COLUMN place_words TEXT;
-- The centre as a unit vector, and sin/cos of half the angle the radius spans.
ALTER TABLE items ADD COLUMN geo_x REAL;
ALTER TABLE items ADD COLUMN geo_y REAL;
ALTER TABLE items ADD COLUMN geo_z REAL;
ALTER TABLE items ADD COLUMN radius_sin REAL;
ALTER TABLE items ADD COLUMN radius_cos REAL;
-- When the derived columns were filled (NULL: not yet).
ALTER TABLE items ADD COLUMN derived_at INTEGER;

CREATE INDEX items_by_kind_newest ON items (kind, created_at DESC, id DESC);
CREATE INDEX items_by_cat_newest ON items (cat_key, created_at DESC, id DESC);
CREATE INDEX items_by_reporter_newest ON items (created_by, created_at DESC, id DESC);
CREATE INDEX items_by_lat ON items (lat);
CREATE INDEX items_by_radius ON items (radius);
CREATE INDEX items_underived ON items (id) WHERE derived_at IS NULL;

-- Grows with every change to any item: the version of every list, for ETags.
CREATE TABLE item_list_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO item_list_version (id, version) VALUES (1, 1);

-- A photo as uploaded, and its thumbnail (JPEG; NULL when a photo stored by an earlier
-- release does not decode: it is then its own thumbnail).
CREATE TABLE photos (
    item_id INTEGER PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    mime    TEXT NOT NULL,
    bytes   BLOB NOT NULL,
    thumb   BLOB
);

-- Word-prefix search over the folded words, kept in step with `items` by triggers.
CREATE VIRTUAL TABLE items_fts USING fts5(
    search_words, place_words,
    content = 'items', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2 3'
);
CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
    INSERT INTO items_fts (rowid, search_words, place_words) VALUES (new.id, new.search_words, new.place_words);
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
    INSERT INTO items_fts (items_fts, rowid, search_words, place_words)
    VALUES ('delete', old.id, old.search_words, old.place_words);
END;
CREATE TRIGGER items_fts_update AFTER UPDATE OF search_words, place_words ON items BEGIN
    INSERT INTO items_fts (items_fts, rowid, search_words, place_words)
    VALUES ('delete', old.id, old.search_words, old.place_words);
    INSERT INTO items_fts (rowid, search_words, place_words) VALUES (new.id, new.search_words, new.place_words);
END;
-- Index the rows already there (their words come later, through the update trigger).
INSERT INTO items_fts (items_fts) VALUES ('rebuild');
