-- kept: the whole schema of DESIGN.md section 1.
-- Timestamps are UTC unix seconds (INTEGER); due dates are local calendar values in the org's
-- timezone as text ('YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM'), so they sort and compare as text.

CREATE TABLE orgs (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    timezone    TEXT    NOT NULL DEFAULT 'Europe/Moscow',
    locale      TEXT    NOT NULL DEFAULT 'ru' CHECK (locale IN ('ru', 'en')),
    -- JSON: per-org cron overrides and holidays, see config.rs ScheduleSettings.
    schedule    TEXT,
    created_at  INTEGER NOT NULL
);

CREATE TABLE users (
    id             INTEGER PRIMARY KEY,          -- Telegram user id
    first_name     TEXT    NOT NULL,
    last_name      TEXT,
    username       TEXT,
    language_code  TEXT,
    lang_override  TEXT    CHECK (lang_override IN ('ru', 'en')),
    dm_open        INTEGER NOT NULL DEFAULT 0 CHECK (dm_open IN (0, 1)),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
-- "/role @user" and "что у @dima" look people up by username, case-insensitively.
CREATE INDEX users_username ON users (lower(username));

CREATE TABLE members (
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    user_id     INTEGER NOT NULL REFERENCES users (id),
    role        TEXT    NOT NULL DEFAULT 'member' CHECK (role IN ('director', 'lead', 'member')),
    position    TEXT,
    manager_id  INTEGER REFERENCES users (id),
    active      INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    joined_at   INTEGER NOT NULL,
    PRIMARY KEY (org_id, user_id)
);
-- A lead's reports are read by manager_id, transitively (access control).
CREATE INDEX members_manager ON members (org_id, manager_id);
-- A user's org is found from the user alone when they write in DM.
CREATE INDEX members_user ON members (user_id);

CREATE TABLE chats (
    id          INTEGER PRIMARY KEY,             -- Telegram chat id (follows supergroup migration)
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    kind        TEXT    NOT NULL CHECK (kind IN ('group', 'supergroup')),
    title       TEXT,
    active      INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    linked_at   INTEGER NOT NULL
);
CREATE INDEX chats_org ON chats (org_id);

CREATE TABLE messages (
    chat_id     INTEGER NOT NULL REFERENCES chats (id) ON UPDATE CASCADE,
    message_id  INTEGER NOT NULL,
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    user_id     INTEGER REFERENCES users (id),
    date        INTEGER NOT NULL,
    text        TEXT    NOT NULL,
    reply_to    INTEGER,
    edit_date   INTEGER,
    PRIMARY KEY (chat_id, message_id)
);
-- Reflection and the daily summary read one person's messages of one day.
CREATE INDEX messages_author_date ON messages (org_id, user_id, date);

CREATE TABLE memories (
    id                 INTEGER PRIMARY KEY,
    org_id             INTEGER NOT NULL REFERENCES orgs (id),
    subject_id         INTEGER NOT NULL REFERENCES users (id),
    kind               TEXT    NOT NULL CHECK (kind IN ('fact', 'trait', 'commitment', 'context', 'preference')),
    content            TEXT    NOT NULL,
    -- lower-cased, ё→е, single-spaced: the dedup key.
    norm_content       TEXT    NOT NULL,
    confidence         REAL    NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    tags               TEXT    NOT NULL DEFAULT '[]',
    evidence           TEXT    NOT NULL DEFAULT '',
    author             TEXT    NOT NULL CHECK (author LIKE 'user:%' OR author IN ('agent:rules', 'agent:llm', 'agent:reflection', 'agent:import')),
    visibility         TEXT    NOT NULL CHECK (visibility IN ('team', 'private')),
    source_chat_id     INTEGER,
    source_message_id  INTEGER,
    valid_from         INTEGER NOT NULL,
    valid_to           INTEGER,
    superseded_by      INTEGER REFERENCES memories (id),
    is_archived        INTEGER NOT NULL DEFAULT 0 CHECK (is_archived IN (0, 1)),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    -- commitments only
    due_at             TEXT,
    due_grain          TEXT    CHECK (due_grain IN ('day', 'minute')),
    state              TEXT    CHECK (state IN ('open', 'done', 'cancelled')),
    origin_id          INTEGER REFERENCES memories (id),
    requester_id       INTEGER REFERENCES users (id),
    -- for an accepted request: the asking message (a reply to it refers to this commitment)
    request_chat_id    INTEGER,
    request_message_id INTEGER,
    -- the message that produced this version (origin for the first, the update for later ones)
    version_chat_id    INTEGER,
    version_message_id INTEGER,
    CHECK ((kind = 'commitment') = (state IS NOT NULL)),
    CHECK (due_grain IS NULL OR due_at IS NOT NULL)
);
-- Context reads: one person's current memories of a kind.
CREATE INDEX memories_subject ON memories (org_id, subject_id, kind, is_archived);
-- Reminders and overdue lists: open commitments by due date.
CREATE INDEX memories_open_due ON memories (org_id, due_at) WHERE kind = 'commitment' AND is_archived = 0 AND state = 'open';
-- History of one commitment across versions.
CREATE INDEX memories_origin ON memories (origin_id);
-- Replies and edits find what a message produced.
CREATE INDEX memories_source ON memories (source_chat_id, source_message_id);
CREATE INDEX memories_version ON memories (version_chat_id, version_message_id);
CREATE INDEX memories_request ON memories (request_chat_id, request_message_id);
-- Dedup on write: one current row per subject + kind + normalised content (commitments are versioned instead).
CREATE UNIQUE INDEX memories_dedup ON memories (org_id, subject_id, kind, norm_content) WHERE is_archived = 0 AND kind <> 'commitment';

CREATE TABLE nodes (
    id             INTEGER PRIMARY KEY,
    org_id         INTEGER NOT NULL REFERENCES orgs (id),
    node_type      TEXT    NOT NULL CHECK (node_type IN ('product', 'process', 'regulation', 'role', 'location', 'customer', 'supplier', 'equipment', 'department', 'concept')),
    title          TEXT    NOT NULL,
    slug           TEXT    NOT NULL CHECK (length(slug) BETWEEN 1 AND 80),
    description    TEXT,
    owner_user_id  INTEGER REFERENCES users (id),
    is_archived    INTEGER NOT NULL DEFAULT 0 CHECK (is_archived IN (0, 1)),
    created_at     INTEGER NOT NULL,
    UNIQUE (org_id, slug)
);
-- "owned graph nodes" of a person in context reads.
CREATE INDEX nodes_owner ON nodes (org_id, owner_user_id);

CREATE TABLE edges (
    id          INTEGER PRIMARY KEY,
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    from_node   INTEGER NOT NULL REFERENCES nodes (id),
    to_node     INTEGER REFERENCES nodes (id),
    to_user     INTEGER REFERENCES users (id),
    relation    TEXT    NOT NULL CHECK (relation IN ('responsible_for', 'depends_on', 'part_of', 'related_to', 'supplies', 'regulates', 'located_at', 'owns')),
    created_at  INTEGER NOT NULL,
    CHECK ((to_node IS NULL) <> (to_user IS NULL)),
    UNIQUE (from_node, to_node, to_user, relation)
);
CREATE INDEX edges_to_user ON edges (org_id, to_user);

CREATE TABLE goals (
    id           INTEGER PRIMARY KEY,
    org_id       INTEGER NOT NULL REFERENCES orgs (id),
    title        TEXT    NOT NULL,
    owner_id     INTEGER REFERENCES users (id),
    status       TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'done', 'dropped')),
    due_at       TEXT,
    created_at   INTEGER NOT NULL
);
CREATE INDEX goals_org ON goals (org_id, status);

CREATE TABLE goal_steps (
    id        INTEGER PRIMARY KEY,
    goal_id   INTEGER NOT NULL REFERENCES goals (id),
    position  INTEGER NOT NULL,
    title     TEXT    NOT NULL,
    done      INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    UNIQUE (goal_id, position)
);

CREATE TABLE tasks (
    id           INTEGER PRIMARY KEY,
    org_id       INTEGER NOT NULL REFERENCES orgs (id),
    assignee_id  INTEGER REFERENCES users (id),
    title        TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'done', 'cancelled')),
    priority     TEXT    NOT NULL DEFAULT 'normal' CHECK (priority IN ('urgent', 'high', 'normal', 'low')),
    due_at       TEXT,
    goal_id      INTEGER REFERENCES goals (id),
    goal_step_id INTEGER REFERENCES goal_steps (id),
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
-- Priorities and idleness: one person's open tasks.
CREATE INDEX tasks_assignee ON tasks (org_id, assignee_id, status);

CREATE TABLE reflections (
    id            INTEGER PRIMARY KEY,
    org_id        INTEGER NOT NULL REFERENCES orgs (id),
    user_id       INTEGER NOT NULL REFERENCES users (id),
    day           TEXT    NOT NULL,                 -- local date 'YYYY-MM-DD'
    summary       TEXT    NOT NULL,
    highlights    TEXT    NOT NULL DEFAULT '[]',    -- JSON arrays of strings
    commitments   TEXT    NOT NULL DEFAULT '[]',
    risks         TEXT    NOT NULL DEFAULT '[]',
    observations  TEXT    NOT NULL DEFAULT '[]',
    author        TEXT    NOT NULL DEFAULT 'agent:reflection',
    created_at    INTEGER NOT NULL,
    UNIQUE (user_id, day)
);
CREATE INDEX reflections_org_day ON reflections (org_id, day);

CREATE TABLE job_runs (
    id          INTEGER PRIMARY KEY,
    job         TEXT    NOT NULL CHECK (job IN ('reminders_morning', 'reminders_day_before', 'reflection', 'daily_summary', 'weekly_digest')),
    org_id      INTEGER NOT NULL REFERENCES orgs (id),
    period_key  TEXT    NOT NULL,                   -- the local date (or week) the run is for
    scheduled_at INTEGER NOT NULL,
    claimed_at  INTEGER NOT NULL,
    finished_at INTEGER,
    UNIQUE (job, org_id, period_key)
);

CREATE TABLE deliveries (
    id                  INTEGER PRIMARY KEY,
    org_id              INTEGER NOT NULL REFERENCES orgs (id),
    job_run_id          INTEGER REFERENCES job_runs (id),
    chat_id             INTEGER NOT NULL,
    to_user             INTEGER REFERENCES users (id),
    kind                TEXT    NOT NULL CHECK (kind IN ('message', 'photo')),
    text                TEXT    NOT NULL,
    photo               BLOB,
    buttons             TEXT    NOT NULL DEFAULT '[]',  -- JSON rows of [label, callback data]
    -- where to send instead if the private chat is closed (403): a group and its text with a mention
    fallback_chat_id    INTEGER,
    fallback_text       TEXT,
    state               TEXT    NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed')),
    attempts            INTEGER NOT NULL DEFAULT 0,
    last_error          TEXT,
    not_before          INTEGER NOT NULL,
    created_at          INTEGER NOT NULL,
    sent_at             INTEGER,
    telegram_message_id INTEGER
);
-- The sender takes queued items in order.
CREATE INDEX deliveries_queued ON deliveries (state, not_before, id) WHERE state = 'queued';
