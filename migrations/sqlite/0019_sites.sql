-- The desks of one service. An installation from before sites gets one, which holds every
-- item; `created_at` 0 marks it as made here, so that the service, at its next start, gives it
-- the office's text (`LOSTFOUND_OFFICE`) as how to collect. `geo_*` is the site's point as a
-- unit vector (see src/domain/geo.rs): a new report goes to the nearest site.
CREATE TABLE sites (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL,
    place      TEXT,
    lat        REAL,
    lng        REAL,
    geo_x      REAL,
    geo_y      REAL,
    geo_z      REAL,
    hours      TEXT,
    contact    TEXT,
    collect    TEXT,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX sites_by_name ON sites (lower(name));
INSERT INTO sites (id, name, created_at) VALUES (1, 'Lost and found office', 0);

ALTER TABLE items ADD COLUMN site_id INTEGER REFERENCES sites (id);
UPDATE items SET site_id = 1;
CREATE INDEX items_by_site ON items (site_id, status, created_at DESC, id DESC);
