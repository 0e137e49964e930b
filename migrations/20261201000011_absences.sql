-- Absences (issue: working the team from Telegram): "я в отпуске с 1 по 10 декабря", "/away".
-- Days are local dates, both ends included; `ended_at` set by "/away off" (the row is kept).
CREATE TABLE absences (
    id                 INTEGER PRIMARY KEY,
    org_id             INTEGER NOT NULL REFERENCES orgs (id),
    user_id            INTEGER NOT NULL REFERENCES users (id),
    from_day           TEXT    NOT NULL,
    to_day             TEXT    NOT NULL,
    source_chat_id     INTEGER,
    source_message_id  INTEGER,
    created_at         INTEGER NOT NULL,
    ended_at           INTEGER,
    CHECK (to_day >= from_day)
);
CREATE INDEX absences_current ON absences (org_id, to_day) WHERE ended_at IS NULL;
