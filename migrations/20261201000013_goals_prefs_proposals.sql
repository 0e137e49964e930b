-- Working the team from Telegram, part two: goals with their steps, digest preferences,
-- weekly digests for linked groups, and owners proposed from group messages.

-- A goal's description and who set it (the owner may be someone else).
ALTER TABLE goals ADD COLUMN description TEXT;
ALTER TABLE goals ADD COLUMN created_by INTEGER REFERENCES users (id);

-- A step is proposed (by the model or as the whole goal), then kept or dropped; a kept step
-- becomes a task (`tasks.goal_step_id` points back). `done_at` is set when its task is done.
ALTER TABLE goal_steps ADD COLUMN status TEXT NOT NULL DEFAULT 'proposed'
    CHECK (status IN ('proposed', 'kept', 'dropped'));
ALTER TABLE goal_steps ADD COLUMN done_at INTEGER;
CREATE INDEX tasks_goal ON tasks (goal_id) WHERE goal_id IS NOT NULL;

-- What each person receives: the daily summary (and at which local hour; NULL = the org's
-- time) and the weekly digest. No row = the defaults (both on, at the org's time).
CREATE TABLE digest_prefs (
    org_id  INTEGER NOT NULL REFERENCES orgs (id),
    user_id INTEGER NOT NULL REFERENCES users (id),
    daily   INTEGER NOT NULL DEFAULT 1 CHECK (daily IN (0, 1)),
    weekly  INTEGER NOT NULL DEFAULT 1 CHECK (weekly IN (0, 1)),
    hour    INTEGER CHECK (hour BETWEEN 0 AND 23),
    PRIMARY KEY (org_id, user_id)
);

-- Linked groups that get the weekly digest (team items only), turned on by a director.
CREATE TABLE group_digests (
    chat_id    INTEGER PRIMARY KEY REFERENCES chats (id) ON UPDATE CASCADE,
    org_id     INTEGER NOT NULL REFERENCES orgs (id),
    enabled_by INTEGER NOT NULL REFERENCES users (id),
    created_at INTEGER NOT NULL
);

-- "за CRM отвечает Дима": an owner heard in a group, waiting for the director's button.
CREATE TABLE owner_proposals (
    id                INTEGER PRIMARY KEY,
    org_id            INTEGER NOT NULL REFERENCES orgs (id),
    node_id           INTEGER REFERENCES nodes (id),
    title             TEXT    NOT NULL,
    owner_id          INTEGER NOT NULL REFERENCES users (id),
    proposed_by       INTEGER NOT NULL REFERENCES users (id),
    source_chat_id    INTEGER,
    source_message_id INTEGER,
    status            TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'confirmed', 'ignored')),
    created_at        INTEGER NOT NULL
);
CREATE INDEX owner_proposals_open ON owner_proposals (org_id, status);

-- edges' UNIQUE (from_node, to_node, to_user, relation) never fires: one of to_node/to_user is
-- always NULL, and SQLite's NULLs are distinct. One edge of a kind between two ends, enforced
-- by a partial index per kind of end (duplicates, if any, collapse to the first).
DELETE FROM edges WHERE id NOT IN (
    SELECT min(id) FROM edges GROUP BY org_id, from_node, to_node, to_user, relation);
CREATE UNIQUE INDEX edges_to_node_once ON edges (org_id, from_node, to_node, relation)
    WHERE to_node IS NOT NULL;
CREATE UNIQUE INDEX edges_to_user_once ON edges (org_id, from_node, to_user, relation)
    WHERE to_user IS NOT NULL;
