-- Search over messages is indexed in bulk instead of by a trigger per message. Indexed one
-- message per transaction (the live path), every message wrote a new FTS5 segment, its own row
-- in `message_search` with an index entry, and a second copy of its text: half of the pages a
-- message's commit wrote (benches/ingest.rs, `file_wal_one_by_one`). Now messages past
-- `search_mark` are indexed together, when enough have gathered and before every search
-- (src/store/messages.rs, `index_messages`), and the index reads texts from `messages` itself.

DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_edit;
DROP TRIGGER messages_fts_delete;
DROP TABLE messages_fts;

-- The text of every indexed message under its search id: the index's external content.
CREATE VIEW message_texts AS
    SELECT s.id AS id, m.text AS text
    FROM message_search s JOIN messages m ON m.chat_id = s.chat_id AND m.message_id = s.message_id;
CREATE VIRTUAL TABLE messages_fts USING fts5 (
    text, content = 'message_texts', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');

-- The highest rowid of `messages` indexed so far (one row).
CREATE TABLE search_mark (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    message_rowid  INTEGER NOT NULL
);
INSERT INTO search_mark (id, message_rowid) VALUES (1, (SELECT coalesce(max(rowid), 0) FROM messages));

-- An indexed message that changes is indexed again at once (edits are few); one not indexed
-- yet is indexed with its new text when its turn comes.
CREATE TRIGGER message_search_edit AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text)
        SELECT 'delete', id, old.text FROM message_search
        WHERE chat_id = new.chat_id AND message_id = new.message_id;
    INSERT INTO messages_fts (rowid, text)
        SELECT id, new.text FROM message_search
        WHERE chat_id = new.chat_id AND message_id = new.message_id;
END;
CREATE TRIGGER message_search_delete BEFORE DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text)
        SELECT 'delete', id, old.text FROM message_search
        WHERE chat_id = old.chat_id AND message_id = old.message_id;
END;
