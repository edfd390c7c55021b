-- 0320: hosted mode's control plane (issue 21, organizations/README.md). Organisations, their
-- members and the invitations by email live in a schema of their own, watchdeck_control, apart
-- from the app's tables: every organisation's schema is migrated by this same list with its
-- search_path set to that schema, where these statements (schema-qualified, IF NOT EXISTS) find
-- the control plane already there and do nothing.
CREATE SCHEMA IF NOT EXISTS watchdeck_control;

-- status: provisioning until the organisation's schema is created and migrated, then ready;
-- failed keeps the reason in error and is retried by the next claim. claimed_until: the process
-- provisioning it holds it until then (a process that dies mid-way lets another take over).
-- engines_process/engines_until: the process running the organisation's engines holds this lease.
CREATE TABLE IF NOT EXISTS watchdeck_control.organizations (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug           text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$'),
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  status         text NOT NULL DEFAULT 'provisioning' CHECK (status IN ('provisioning', 'ready', 'failed')),
  schema_name    text NOT NULL UNIQUE CHECK (schema_name ~ '^org_[a-z0-9_]{1,59}$'),
  error          text,
  created_by     uuid NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  provisioned_at timestamptz,
  claimed_until  timestamptz,
  engines_process uuid,
  engines_until  timestamptz
);

-- person_id: the person of the root backend (its people table); the same id is the person inside
-- the organisation's schema, so created_by columns name the same person everywhere.
CREATE TABLE IF NOT EXISTS watchdeck_control.organization_members (
  organization_id uuid NOT NULL REFERENCES watchdeck_control.organizations (id) ON DELETE CASCADE,
  person_id       uuid NOT NULL,
  role            text NOT NULL CHECK (role IN ('admin', 'editor', 'commander', 'responder', 'viewer')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, person_id)
);
CREATE INDEX IF NOT EXISTS organization_members_person_idx ON watchdeck_control.organization_members (person_id);

-- An invitation is accepted by a signed-in person whose email is this one (lowercased).
CREATE TABLE IF NOT EXISTS watchdeck_control.organization_invites (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES watchdeck_control.organizations (id) ON DELETE CASCADE,
  email           text NOT NULL CHECK (email = lower(email) AND length(email) <= 320),
  role            text NOT NULL CHECK (role IN ('admin', 'editor', 'commander', 'responder', 'viewer')),
  invited_by      uuid NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  accepted_at     timestamptz,
  UNIQUE (organization_id, email)
);
CREATE INDEX IF NOT EXISTS organization_invites_email_idx
  ON watchdeck_control.organization_invites (email) WHERE accepted_at IS NULL;
