-- Indexes for the hot reads, found with EXPLAIN QUERY PLAN while benchmarking (benches/context.rs, benches/ingest.rs).

-- Context reads: a person's current memories of the non-commitment kinds, newest first
-- (`memories_for`: ORDER BY id DESC LIMIT 500 walks this index and stops, instead of reading
-- and sorting every memory of the person).
CREATE INDEX memories_subject_recent ON memories (org_id, subject_id, id)
    WHERE is_archived = 0 AND kind <> 'commitment';

-- Ingest: a person's open commitments, most recent first (`open_commitments`), without reading
-- every done one.
CREATE INDEX memories_open_subject ON memories (org_id, subject_id, created_at)
    WHERE kind = 'commitment' AND is_archived = 0 AND state = 'open';

-- Accept detection: the latest messages of a chat in a time window (`recent_messages`), without
-- reading the whole chat.
CREATE INDEX messages_chat_date ON messages (chat_id, date);
