-- Commitment versions in one statement each: the database keeps `origin_id` and archives the
-- previous version itself, so a write is one round trip and can never be half done.

-- A first version is its own origin.
CREATE TRIGGER commitment_origin AFTER INSERT ON memories
WHEN NEW.kind = 'commitment' AND NEW.origin_id IS NULL
BEGIN
    UPDATE memories SET origin_id = NEW.id WHERE id = NEW.id;
END;

-- A later version archives the one it replaces (never deletes it).
CREATE TRIGGER commitment_supersede AFTER INSERT ON memories
WHEN NEW.kind = 'commitment' AND NEW.origin_id IS NOT NULL
BEGIN
    UPDATE memories
       SET is_archived = 1, valid_to = NEW.valid_from, updated_at = NEW.valid_from,
           superseded_by = NEW.id
     WHERE origin_id = NEW.origin_id AND id <> NEW.id AND is_archived = 0;
END;
