-- Named places administrators keep (buildings, rooms, stops): a report may choose one by its
-- name instead of a point on the map. `name_key` is the name folded (Unicode lower case,
-- folded by the service), one place to a name.
CREATE TABLE places (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL UNIQUE,
    lat        REAL NOT NULL,
    lng        REAL NOT NULL,
    radius     REAL,
    created_at INTEGER NOT NULL
);
