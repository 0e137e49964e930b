-- Revision counters for the context read's cache (src/store/context.rs). Every change to
-- what a person's context shows bumps their row; changes to the org's graph (nodes, edges),
-- which any context may show, bump the org's row (subject_id = 0). A cached context is good
-- while the sum of the two is what it was when the context was read. Triggers keep them, so
-- every write counts: the bot's, `kept import`'s, another process's.
CREATE TABLE read_revisions (
    org_id     INTEGER NOT NULL,
    subject_id INTEGER NOT NULL,
    rev        INTEGER NOT NULL,
    PRIMARY KEY (org_id, subject_id)
) WITHOUT ROWID;

CREATE TRIGGER memories_read_rev_insert AFTER INSERT ON memories BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, NEW.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER memories_read_rev_update AFTER UPDATE ON memories BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, NEW.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
-- Moved to someone else: the one it left changes too.
CREATE TRIGGER memories_read_rev_move AFTER UPDATE ON memories
WHEN OLD.subject_id IS NOT NEW.subject_id OR OLD.org_id IS NOT NEW.org_id BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, OLD.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER memories_read_rev_delete AFTER DELETE ON memories BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, OLD.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;

CREATE TRIGGER tasks_read_rev_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, coalesce(NEW.assignee_id, 0), 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER tasks_read_rev_update AFTER UPDATE ON tasks BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, coalesce(NEW.assignee_id, 0), 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
-- Moved to someone else: the one it left changes too.
CREATE TRIGGER tasks_read_rev_move AFTER UPDATE ON tasks
WHEN coalesce(OLD.assignee_id, 0) IS NOT coalesce(NEW.assignee_id, 0) OR OLD.org_id IS NOT NEW.org_id BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, coalesce(OLD.assignee_id, 0), 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER tasks_read_rev_delete AFTER DELETE ON tasks BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, coalesce(OLD.assignee_id, 0), 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;

CREATE TRIGGER reflections_read_rev_insert AFTER INSERT ON reflections BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, NEW.user_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER reflections_read_rev_update AFTER UPDATE ON reflections BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, NEW.user_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
-- Moved to someone else: the one it left changes too.
CREATE TRIGGER reflections_read_rev_move AFTER UPDATE ON reflections
WHEN OLD.user_id IS NOT NEW.user_id OR OLD.org_id IS NOT NEW.org_id BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, OLD.user_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER reflections_read_rev_delete AFTER DELETE ON reflections BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, OLD.user_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;

CREATE TRIGGER nodes_read_rev_insert AFTER INSERT ON nodes BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, 0, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER nodes_read_rev_update AFTER UPDATE ON nodes BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, 0, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER nodes_read_rev_delete AFTER DELETE ON nodes BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, 0, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;

CREATE TRIGGER edges_read_rev_insert AFTER INSERT ON edges BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, 0, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER edges_read_rev_update AFTER UPDATE ON edges BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, 0, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER edges_read_rev_delete AFTER DELETE ON edges BEGIN
    INSERT INTO read_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, 0, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;

-- A person's latest reflections, newest first (the context read's; reflections_org_day serves
-- the org's day).
CREATE INDEX reflections_user_day ON reflections (org_id, user_id, day);

-- A person's open commitments with every column the context read takes, so that it reads them
-- from the index alone instead of one table page per row (a third faster at a million
-- memories, benches/context.rs; open ones are few, so the index stays small).
DROP INDEX memories_open_subject;
CREATE INDEX memories_open_subject ON memories (org_id, subject_id, created_at, origin_id,
    content, due_at, state, confidence, author, visibility, source_chat_id, source_message_id,
    version_chat_id, version_message_id, requester_id, valid_from, is_archived, kind)
    WHERE kind = 'commitment' AND is_archived = 0 AND state = 'open';
