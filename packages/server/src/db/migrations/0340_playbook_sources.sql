-- 0340: playbooks synced from files (playbooks/README.md "Sources"). An admin names where the
-- files are: a git remote (url, or a connection giving url and credentials) at a ref, or a
-- directory on the server under an allowed root; `paths` are globs inside it. The sync engine
-- claims a source through lease_until (one sync of a source at a time across replicas) and
-- writes its playbooks with source 'GitOps', source_id and the file they came from.

CREATE TABLE playbook_sources (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  url         text,
  connection  text,
  ref         text,
  directory   text,
  paths       text[] NOT NULL DEFAULT '{}',
  schedule    text,
  lease_until timestamptz,
  created_by  uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  -- files come from one place: a git remote (url and/or connection) or a directory
  CHECK ((directory IS NULL) <> (url IS NULL AND connection IS NULL))
);
CREATE UNIQUE INDEX playbook_sources_name_key ON playbook_sources (name) WHERE deleted_at IS NULL;
CREATE INDEX playbook_sources_created_by_idx ON playbook_sources (created_by);
CREATE INDEX playbook_sources_deleted_at_idx ON playbook_sources (deleted_at);
CREATE TRIGGER playbook_sources_updated_at BEFORE UPDATE ON playbook_sources
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- where a synced playbook came from; source_hash is its content as last written, so a sync of
-- an unchanged file writes nothing
ALTER TABLE playbooks ADD COLUMN source_id uuid REFERENCES playbook_sources(id) ON DELETE SET NULL;
ALTER TABLE playbooks ADD COLUMN source_path text;
ALTER TABLE playbooks ADD COLUMN source_hash text;
CREATE INDEX playbooks_source_id_idx ON playbooks (source_id);
