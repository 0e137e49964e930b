-- When the scheduler last looked at an org's timetable (scheduler state, not a job run).
--
-- It tells a restart from a first start: after downtime, runs missed since the last tick are done
-- late or skipped and logged (DESIGN section 5); an org the scheduler never looked at starts from
-- now, so a brand-new database neither sends yesterday's jobs nor warns about them.
CREATE TABLE scheduler_ticks (
    org_id      INTEGER PRIMARY KEY REFERENCES orgs (id),
    ticked_at   INTEGER NOT NULL
);
