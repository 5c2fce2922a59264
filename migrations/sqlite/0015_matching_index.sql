-- Matching reads the approved items of one kind in a box around an item, within a window of
-- time: from this index the box, the time and the category are tested on the index entries,
-- and only the items that pass them are read. Through (lat, lng) every item in the box was
-- read to test the rest: at a million items over a city, 15,000 for the box of one match.
CREATE INDEX items_for_matching ON items (status, kind, lat, lng, created_at, cat_key);
