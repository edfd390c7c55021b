-- Length caps on the free text people write (issue 12 point 15): without them one request could
-- store a comment of any size (the body limit is 10 MB), and every reader of the incident would
-- carry it. Checked by the database, so every path (the /api/db engine, the areas' own routes,
-- rules and responders) is held to the same caps; a longer value is a 400 naming the constraint.
-- NOT VALID: rows stored before the caps stay readable; every new or changed row is checked.
ALTER TABLE comments ADD CONSTRAINT comment_at_most_10000_characters CHECK (length(comment) <= 10000) NOT VALID;

ALTER TABLE incidents ADD CONSTRAINT title_at_most_1000_characters CHECK (length(title) <= 1000) NOT VALID;
ALTER TABLE incidents ADD CONSTRAINT description_at_most_10000_characters CHECK (length(description) <= 10000) NOT VALID;

ALTER TABLE hypotheses ADD CONSTRAINT title_at_most_1000_characters CHECK (length(title) <= 1000) NOT VALID;

ALTER TABLE evidences ADD CONSTRAINT description_at_most_10000_characters CHECK (length(description) <= 10000) NOT VALID;
ALTER TABLE evidences ADD CONSTRAINT script_at_most_4000_characters CHECK (length(script) <= 4000) NOT VALID;

ALTER TABLE playbooks ADD CONSTRAINT title_at_most_1000_characters CHECK (length(title) <= 1000) NOT VALID;
ALTER TABLE playbooks ADD CONSTRAINT description_at_most_10000_characters CHECK (length(description) <= 10000) NOT VALID;

ALTER TABLE notification_silences ADD CONSTRAINT description_at_most_10000_characters CHECK (length(description) <= 10000) NOT VALID;

ALTER TABLE saved_searches ADD CONSTRAINT name_at_most_255_characters CHECK (length(name) <= 255) NOT VALID;
ALTER TABLE saved_searches ADD CONSTRAINT query_at_most_10000_characters CHECK (length(query) <= 10000) NOT VALID;

ALTER TABLE teams ADD CONSTRAINT name_at_most_255_characters CHECK (length(name) <= 255) NOT VALID;
