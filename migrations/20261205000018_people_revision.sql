-- One counter for everyone's profile and membership (users, members), for the in-process list
-- of an org's people (src/store/people.rs): read for every message heard, it is good while the
-- counter is what it was when the list was read. Triggers keep it, so every write counts: the
-- bot's, `kept import`'s, another process's.
CREATE TABLE people_revision (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    rev INTEGER NOT NULL
);
INSERT INTO people_revision (id, rev) VALUES (1, 0);

CREATE TRIGGER users_people_rev_insert AFTER INSERT ON users BEGIN
    UPDATE people_revision SET rev = rev + 1 WHERE id = 1;
END;
CREATE TRIGGER users_people_rev_update AFTER UPDATE ON users BEGIN
    UPDATE people_revision SET rev = rev + 1 WHERE id = 1;
END;
CREATE TRIGGER users_people_rev_delete AFTER DELETE ON users BEGIN
    UPDATE people_revision SET rev = rev + 1 WHERE id = 1;
END;
CREATE TRIGGER members_people_rev_insert AFTER INSERT ON members BEGIN
    UPDATE people_revision SET rev = rev + 1 WHERE id = 1;
END;
CREATE TRIGGER members_people_rev_update AFTER UPDATE ON members BEGIN
    UPDATE people_revision SET rev = rev + 1 WHERE id = 1;
END;
CREATE TRIGGER members_people_rev_delete AFTER DELETE ON members BEGIN
    UPDATE people_revision SET rev = rev + 1 WHERE id = 1;
END;
