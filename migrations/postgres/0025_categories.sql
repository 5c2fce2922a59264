-- Categories, kept by administrators: the key a report stores as its category (folded to
-- lower case, as items.cat_key is), the category's name in each language (a JSON object:
-- en always, ko and es when given) and how long found items of it are kept (NULL: the
-- site's or the service's period). It starts with the categories the app offered before.
CREATE TABLE categories (
    key        TEXT PRIMARY KEY,
    names      TEXT NOT NULL,
    hold_days  BIGINT,
    created_at BIGINT NOT NULL
);
INSERT INTO categories (key, names, hold_days, created_at) VALUES
    ('accessories', '{"en":"accessories","ko":"액세서리","es":"accesorios"}', NULL, 0),
    ('bags', '{"en":"bags","ko":"가방","es":"bolsos"}', NULL, 0),
    ('clothing', '{"en":"clothing","ko":"의류","es":"ropa"}', NULL, 0),
    ('documents', '{"en":"documents","ko":"서류","es":"documentos"}', NULL, 0),
    ('electronics', '{"en":"electronics","ko":"전자기기","es":"electrónica"}', NULL, 0),
    ('keys', '{"en":"keys","ko":"열쇠","es":"llaves"}', NULL, 0),
    ('other', '{"en":"other","ko":"기타","es":"otros"}', NULL, 0);
