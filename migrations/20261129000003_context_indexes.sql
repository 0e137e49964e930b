-- Context reads without scanning a person's whole history.

-- Recently closed commitments of a person (`commitments_for`: open ones come from
-- memories_open_subject, closed ones since a date from here).
CREATE INDEX memories_commitments_recent ON memories (org_id, subject_id, valid_from)
    WHERE kind = 'commitment' AND is_archived = 0;

-- A person's facts by confidence: facts do not decay, so the best of them are read whatever
-- their age.
CREATE INDEX memories_subject_facts ON memories (org_id, subject_id, confidence)
    WHERE is_archived = 0 AND kind = 'fact';
