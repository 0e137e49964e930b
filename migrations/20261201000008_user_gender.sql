-- A person's grammatical gender when their name does not say it (a foreign or unisex name):
-- 'm' or 'f', set with /gender; NULL means the name decides.
ALTER TABLE users ADD COLUMN gender TEXT CHECK (gender IN ('m', 'f'));
