-- A person's newest memories and best facts with every column the context read takes
-- (src/store/context.rs), so that it reads them from the index alone. A person's memories are
-- spread over the whole table, one page for nearly every row; in the index they lie together.
-- At 100,000 memories that was most of a cold context read (benches/context.rs). Same keys as
-- before, so every other read that used these indexes still does.
DROP INDEX memories_subject_recent;
CREATE INDEX memories_subject_recent ON memories (org_id, subject_id, id, kind, content,
    confidence, author, visibility, evidence, source_chat_id, source_message_id, created_at,
    updated_at, is_archived)
    WHERE is_archived = 0 AND kind <> 'commitment';

DROP INDEX memories_subject_facts;
CREATE INDEX memories_subject_facts ON memories (org_id, subject_id, confidence, id, kind,
    content, author, visibility, evidence, source_chat_id, source_message_id, created_at,
    updated_at, is_archived)
    WHERE is_archived = 0 AND kind = 'fact';
