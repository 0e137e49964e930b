-- Tasks assigned from Telegram (/task, or "Павел, переделай смету до завтра" in a DM): who
-- assigned it, and when the assignee accepted. A task someone assigned counts in the
-- assignee's priorities and reminders only once accepted; a declined one is cancelled.
ALTER TABLE tasks ADD COLUMN assigned_by INTEGER REFERENCES users (id);
ALTER TABLE tasks ADD COLUMN accepted_at INTEGER;
