-- Revision counters of each person's commitments alone, for the in-process read model of open
-- promises (src/store/context.rs): a context read whose other rows changed (a new memory, a
-- task) takes the person's open promises from memory while this counter is what it was when
-- they were read. Triggers keep it, so every write counts: the bot's, `kept import`'s, another
-- process's.
CREATE TABLE commitment_revisions (
    org_id     INTEGER NOT NULL,
    subject_id INTEGER NOT NULL,
    rev        INTEGER NOT NULL,
    PRIMARY KEY (org_id, subject_id)
) WITHOUT ROWID;

CREATE TRIGGER commitments_rev_insert AFTER INSERT ON memories
WHEN NEW.kind = 'commitment' BEGIN
    INSERT INTO commitment_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, NEW.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER commitments_rev_update AFTER UPDATE ON memories
WHEN NEW.kind = 'commitment' OR OLD.kind = 'commitment' BEGIN
    INSERT INTO commitment_revisions (org_id, subject_id, rev) VALUES (NEW.org_id, NEW.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
-- Moved to someone else: the one it left changes too.
CREATE TRIGGER commitments_rev_move AFTER UPDATE ON memories
WHEN (NEW.kind = 'commitment' OR OLD.kind = 'commitment')
 AND (OLD.subject_id IS NOT NEW.subject_id OR OLD.org_id IS NOT NEW.org_id) BEGIN
    INSERT INTO commitment_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, OLD.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
CREATE TRIGGER commitments_rev_delete AFTER DELETE ON memories
WHEN OLD.kind = 'commitment' BEGIN
    INSERT INTO commitment_revisions (org_id, subject_id, rev) VALUES (OLD.org_id, OLD.subject_id, 1)
        ON CONFLICT (org_id, subject_id) DO UPDATE SET rev = rev + 1;
END;
