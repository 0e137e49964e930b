-- Commitment versions that reminders leave out. `kept import` puts here the promises of
-- imported history that were already long overdue on the day of the import: they stay open
-- and visible in every answer and summary, but nobody is reminded daily of a deadline months
-- gone. The row names one version: a later move, snooze or edit makes a new version, which
-- is reminded again as usual.
CREATE TABLE reminder_mutes (
    memory_id   INTEGER PRIMARY KEY REFERENCES memories (id),
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    -- why: 'import' (the only reason so far)
    reason      TEXT NOT NULL,
    muted_at    INTEGER NOT NULL
);
CREATE INDEX reminder_mutes_org ON reminder_mutes (org_id);
