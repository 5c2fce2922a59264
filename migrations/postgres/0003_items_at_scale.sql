-- Items at scale: kinds and hand-over, versions for conditional requests, folded words for
-- search, positions on the unit sphere for `near`, and photos stored apart from their item.
--
-- The derived columns (cat_key, search_words, place_words, geo_*) and the move of photos out
-- of `img_data` are filled by the service at start-up for rows made before this migration
-- (`derived_at IS NULL`): they need Rust (accent folding, trigonometry, image decoding).

ALTER TABLE items ADD COLUMN kind TEXT NOT NULL DEFAULT 'lost' CHECK (kind IN ('lost', 'found'));
ALTER TABLE items ADD COLUMN returned_at BIGINT;
ALTER TABLE items ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
-- The photo's version (a digest of its bytes); NULL when the item has no photo.
ALTER TABLE items ADD COLUMN photo_version TEXT;
-- The category in lower case, for `cat`.
ALTER TABLE items ADD COLUMN cat_key TEXT;
-- Folded words of title, description and category; of the storage place.
ALTER TABLE items ADD COLUMN search_words TEXT;
ALTER TABLE items ADD COLUMN place_words TEXT;
-- The centre as a unit vector, and sin/cos of half the angle the radius spans.
ALTER TABLE items ADD COLUMN geo_x DOUBLE PRECISION;
ALTER TABLE items ADD COLUMN geo_y DOUBLE PRECISION;
ALTER TABLE items ADD COLUMN geo_z DOUBLE PRECISION;
ALTER TABLE items ADD COLUMN radius_sin DOUBLE PRECISION;
ALTER TABLE items ADD COLUMN radius_cos DOUBLE PRECISION;
-- When the derived columns were filled (NULL: not yet).
ALTER TABLE items ADD COLUMN derived_at BIGINT;

CREATE INDEX items_by_kind_newest ON items (kind, created_at DESC, id DESC);
CREATE INDEX items_by_cat_newest ON items (cat_key, created_at DESC, id DESC);
CREATE INDEX items_by_reporter_newest ON items (created_by, created_at DESC, id DESC);
CREATE INDEX items_by_lat ON items (lat);
CREATE INDEX items_by_radius ON items (radius);
CREATE INDEX items_underived ON items (id) WHERE derived_at IS NULL;
-- Word-prefix search over the folded words (the query must use this very expression).
CREATE INDEX items_search ON items
    USING gin (to_tsvector('simple', coalesce(search_words, '') || ' ' || coalesce(place_words, '')));

-- Grows with every change to any item: the version of every list, for ETags.
CREATE TABLE item_list_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO item_list_version (id, version) VALUES (1, 1);

-- A photo as uploaded, and its thumbnail (JPEG; NULL when a photo stored by an earlier
-- release does not decode: it is then its own thumbnail).
CREATE TABLE photos (
    item_id BIGINT PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    mime    TEXT NOT NULL,
    bytes   BYTEA NOT NULL,
    thumb   BYTEA
);
