-- Indexes the batched write path needs (store/batch.rs).

-- Foreign-key checks on multi-row inserts into memories look for rows pointing at each new id
-- (`superseded_by` refers to memories); without an index that is a scan of the table per row,
-- which made batched capture slower as the database grew. Only archived versions have it.
CREATE INDEX memories_superseded ON memories (superseded_by) WHERE superseded_by IS NOT NULL;

-- Accept detection reads a chat's latest few messages, newest first, ties by message id: with
-- the message id in the index the read stops after those few instead of sorting the last
-- hours of the chat.
CREATE INDEX messages_chat_recent ON messages (chat_id, date, message_id);
DROP INDEX messages_chat_date;
