-- `near` narrows to a box around its point: latitude and longitude from one index, so only
-- the rows inside the box are read (latitude alone read a band across the whole city).
DROP INDEX items_by_lat;
CREATE INDEX items_by_place ON items (lat, lng);
