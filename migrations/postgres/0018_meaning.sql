-- What each item means, as the sentence encoder reads its title and description: written in
-- the background after the item is (see src/meaning/fill.rs), marked with the model that made
-- it, and made again when the model changes. `meaning` is NULL when the text says nothing
-- (emoji, one letter): such items match on their words and place. `seq` grows with every
-- write, so a node's index of meanings catches up with what other nodes wrote.
CREATE TABLE item_meanings (
    seq     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    item_id BIGINT NOT NULL UNIQUE REFERENCES items (id) ON DELETE CASCADE,
    model   TEXT NOT NULL,
    meaning BYTEA
);

-- What owners answered about a suggested match: "not-mine" takes the item out of their
-- suggestions; kept so the office can see how matching does.
CREATE TABLE match_answers (
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    item_id     BIGINT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    answer      TEXT NOT NULL CHECK (answer IN ('not-mine')),
    answered_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, item_id)
);

-- A match notification that tells of several found items at once: all their ids, best first,
-- comma-separated (`item_id` is the best).
ALTER TABLE notifications ADD COLUMN items TEXT;
