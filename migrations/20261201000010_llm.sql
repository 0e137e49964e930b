-- The optional model (DESIGN section 6): what each org spent on it per local day, full-text
-- search over what a free-form answer may cite, and the candidates the rules were unsure of.

-- One row per (org, local day): calls, failures and tokens from the providers' usage fields;
-- `told_spent` = the director was told the day's budget ran out (once a day).
CREATE TABLE llm_usage (
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    day         TEXT    NOT NULL,
    calls       INTEGER NOT NULL DEFAULT 0,
    failures    INTEGER NOT NULL DEFAULT 0,
    tokens_in   INTEGER NOT NULL DEFAULT 0,
    tokens_out  INTEGER NOT NULL DEFAULT 0,
    told_spent  INTEGER NOT NULL DEFAULT 0 CHECK (told_spent IN (0, 1)),
    PRIMARY KEY (org_id, day)
);

-- Messages have a composite key and an implicit rowid that VACUUM may renumber, so the index
-- is keyed by a row of its own that follows the message (chat migrations cascade to it).
CREATE TABLE message_search (
    id          INTEGER PRIMARY KEY,
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    UNIQUE (chat_id, message_id),
    FOREIGN KEY (chat_id, message_id) REFERENCES messages (chat_id, message_id)
        ON UPDATE CASCADE ON DELETE CASCADE
);
CREATE VIRTUAL TABLE messages_fts USING fts5 (text, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO message_search (chat_id, message_id) SELECT chat_id, message_id FROM messages;
INSERT INTO messages_fts (rowid, text)
    SELECT s.id, m.text FROM message_search s
    JOIN messages m ON m.chat_id = s.chat_id AND m.message_id = s.message_id;

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO message_search (chat_id, message_id) VALUES (new.chat_id, new.message_id);
    INSERT INTO messages_fts (rowid, text) VALUES (last_insert_rowid(), new.text);
END;
CREATE TRIGGER messages_fts_edit AFTER UPDATE OF text ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid =
        (SELECT id FROM message_search WHERE chat_id = new.chat_id AND message_id = new.message_id);
    INSERT INTO messages_fts (rowid, text)
        SELECT id, new.text FROM message_search WHERE chat_id = new.chat_id AND message_id = new.message_id;
END;
CREATE TRIGGER messages_fts_delete BEFORE DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid =
        (SELECT id FROM message_search WHERE chat_id = old.chat_id AND message_id = old.message_id);
END;

-- Memories have a stable integer id: an external-content index over their text.
CREATE VIRTUAL TABLE memories_fts USING fts5 (
    content, content = 'memories', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER memories_fts_edit AFTER UPDATE OF content ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO memories_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;

-- Messages the rules were unsure of, waiting for the model's verdict. Written in the rules'
-- transaction, so a crash loses none; `done_at` set once the model answered (or gave up).
CREATE TABLE refine_queue (
    id          INTEGER PRIMARY KEY,
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    done_at     INTEGER,
    outcome     TEXT,
    UNIQUE (chat_id, message_id)
);
CREATE INDEX refine_queue_pending ON refine_queue (org_id, id) WHERE done_at IS NULL;
