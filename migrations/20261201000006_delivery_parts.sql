-- A delivery longer than Telegram's limit goes out as several messages: how many of them are
-- already sent, so a retry or a restart resumes with the next part instead of repeating any.
ALTER TABLE deliveries ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
