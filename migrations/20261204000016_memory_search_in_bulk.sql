-- Search over memories is indexed in bulk, as messages are since migration 015. Indexed by a
-- trigger, every transaction that wrote a promise flushed a new FTS5 segment of
-- `memories_fts` (its data, docsize and idx pages: a fifth of the pages a live message's
-- commit wrote, benches/ingest.rs `file_wal_one_by_one`). Now memories past
-- `memory_search_mark` are indexed together, when enough have gathered and before every
-- search (src/store/memories.rs, `index_memories`). The index keeps reading texts from
-- `memories` (external content); ids are stable (INTEGER PRIMARY KEY, kept by VACUUM).

DROP TRIGGER memories_fts_insert;
DROP TRIGGER memories_fts_edit;
DROP TRIGGER memories_fts_delete;

-- The highest memory id indexed so far (one row).
CREATE TABLE memory_search_mark (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    memory_id  INTEGER NOT NULL
);
INSERT INTO memory_search_mark (id, memory_id) VALUES (1, (SELECT coalesce(max(id), 0) FROM memories));

-- SQLite gives a new row the highest id plus one, so a row written after the highest indexed
-- one was deleted takes its id, at or below the mark: such a row is indexed at once.
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
WHEN NEW.id <= (SELECT memory_id FROM memory_search_mark WHERE id = 1) BEGIN
    INSERT INTO memories_fts (rowid, content) VALUES (NEW.id, NEW.content);
END;
-- An indexed memory that changes is indexed again at once; one not indexed yet is indexed
-- with its new text when its turn comes.
CREATE TRIGGER memories_fts_edit AFTER UPDATE OF content ON memories
WHEN OLD.id <= (SELECT memory_id FROM memory_search_mark WHERE id = 1) BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content) VALUES ('delete', OLD.id, OLD.content);
    INSERT INTO memories_fts (rowid, content) VALUES (NEW.id, NEW.content);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
WHEN OLD.id <= (SELECT memory_id FROM memory_search_mark WHERE id = 1) BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content) VALUES ('delete', OLD.id, OLD.content);
END;
