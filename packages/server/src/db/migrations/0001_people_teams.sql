-- 0001: people, identities and their credentials, roles, teams, access tokens.
--
-- Conventions used by every migration:
--   * ids are uuid DEFAULT gen_random_uuid() (core PostgreSQL, no extension needed);
--   * created_at / updated_at are timestamptz NOT NULL DEFAULT now(); set_updated_at() keeps
--     updated_at current on UPDATE (one shared trigger function);
--   * resources are soft-deleted through deleted_at;
--   * created_by references people(id) ON DELETE SET NULL: history outlives its author;
--   * every foreign key column has an index whose leading column is that column.

-- The one trigger function that maintains updated_at. A statement that sets updated_at to a
-- new value explicitly keeps it (imports, engines replaying history); otherwise it becomes now().
CREATE OR REPLACE FUNCTION set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END
$$;

-- people: every actor the console knows: users, agents (which authenticate as a person of type
-- 'agent') and the system itself. Names and avatars are shown everywhere (creators, responders).
CREATE TABLE people (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  email       text,
  avatar      text,
  type        text NOT NULL DEFAULT 'person' CHECK (type IN ('person', 'agent', 'system')),
  external_id text,
  properties  jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_login  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX people_email_key ON people (lower(email)) WHERE email IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX people_name_idx ON people (name);
CREATE INDEX people_type_idx ON people (type);
CREATE INDEX people_deleted_at_idx ON people (deleted_at);
CREATE TRIGGER people_updated_at BEFORE UPDATE ON people FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- people_roles: the roles of each person (admin, editor, commander, responder, viewer).
-- One row per person; no row or an empty array means viewer. Read as /people_roles?id=in.(...).
CREATE TABLE people_roles (
  id         uuid PRIMARY KEY REFERENCES people(id) ON DELETE CASCADE,
  roles      text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT people_roles_known CHECK (roles <@ ARRAY['admin', 'editor', 'commander', 'responder', 'viewer']::text[])
);
CREATE INDEX people_roles_roles_idx ON people_roles USING gin (roles);
CREATE TRIGGER people_roles_updated_at BEFORE UPDATE ON people_roles FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- identities: the sign-in identity of a person for the own identity service (traits.email,
-- traits.name.first/last), with its state. Shares the person's id. Holds no secrets.
CREATE TABLE identities (
  id               uuid PRIMARY KEY REFERENCES people(id) ON DELETE CASCADE,
  schema_id        text NOT NULL DEFAULT 'default',
  traits           jsonb NOT NULL DEFAULT '{}'::jsonb,
  state            text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'inactive')),
  state_changed_at timestamptz NOT NULL DEFAULT now(),
  verified_at      timestamptz,
  metadata_public  jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identities_email_key ON identities (lower(traits ->> 'email')) WHERE traits ? 'email';
CREATE INDEX identities_state_idx ON identities (state);
CREATE INDEX identities_created_at_idx ON identities (created_at);
CREATE TRIGGER identities_updated_at BEFORE UPDATE ON identities FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- identity_credentials: secrets of an identity, one row per method: password (argon2id hash),
-- totp (secret), lookup_secret (hashed backup codes), webauthn (registered keys), oidc (subject).
-- NEVER exposed through /api/db.
CREATE TABLE identity_credentials (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  identity_id uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  type        text NOT NULL CHECK (type IN ('password', 'totp', 'lookup_secret', 'webauthn', 'oidc')),
  identifiers text[] NOT NULL DEFAULT '{}',
  config      jsonb NOT NULL DEFAULT '{}'::jsonb,
  version     integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (identity_id, type)
);
CREATE INDEX identity_credentials_identifiers_idx ON identity_credentials USING gin (identifiers);
CREATE TRIGGER identity_credentials_updated_at BEFORE UPDATE ON identity_credentials FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- identity_sessions: signed-in sessions (HTTP-only cookie holds the token; only its hash is stored).
-- NEVER exposed through /api/db.
CREATE TABLE identity_sessions (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  identity_id            uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  token_hash             text NOT NULL UNIQUE,
  aal                    text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2')),
  authentication_methods jsonb NOT NULL DEFAULT '[]'::jsonb,
  devices                jsonb NOT NULL DEFAULT '[]'::jsonb,
  active                 boolean NOT NULL DEFAULT true,
  authenticated_at       timestamptz NOT NULL DEFAULT now(),
  issued_at              timestamptz NOT NULL DEFAULT now(),
  expires_at             timestamptz NOT NULL,
  logout_token_hash      text,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_sessions_identity_id_idx ON identity_sessions (identity_id);
CREATE INDEX identity_sessions_expires_at_idx ON identity_sessions (expires_at);
CREATE TRIGGER identity_sessions_updated_at BEFORE UPDATE ON identity_sessions FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- identity_flows: self-service flows (login, registration, recovery, verification, settings,
-- logout) with their flow id, CSRF token, requested AAL and the UI state sent to the browser.
-- NEVER exposed through /api/db.
CREATE TABLE identity_flows (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type             text NOT NULL CHECK (type IN ('login', 'registration', 'recovery', 'verification', 'settings', 'logout')),
  identity_id      uuid REFERENCES identities(id) ON DELETE CASCADE,
  state            text NOT NULL DEFAULT 'choose_method',
  csrf_token       text NOT NULL,
  request_url      text,
  return_to        text,
  requested_aal    text CHECK (requested_aal IN ('aal1', 'aal2')),
  refresh          boolean NOT NULL DEFAULT false,
  ui               jsonb NOT NULL DEFAULT '{}'::jsonb,
  internal_context jsonb NOT NULL DEFAULT '{}'::jsonb,
  expires_at       timestamptz NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_flows_identity_id_idx ON identity_flows (identity_id);
CREATE INDEX identity_flows_expires_at_idx ON identity_flows (expires_at);
CREATE TRIGGER identity_flows_updated_at BEFORE UPDATE ON identity_flows FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- identity_tokens: one-time recovery and verification codes/links (hashed), bound to a flow.
-- NEVER exposed through /api/db.
CREATE TABLE identity_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  identity_id uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  flow_id     uuid REFERENCES identity_flows(id) ON DELETE CASCADE,
  type        text NOT NULL CHECK (type IN ('recovery', 'verification')),
  token_hash  text NOT NULL UNIQUE,
  address     text,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_tokens_identity_id_idx ON identity_tokens (identity_id);
CREATE INDEX identity_tokens_flow_id_idx ON identity_tokens (flow_id);
CREATE INDEX identity_tokens_expires_at_idx ON identity_tokens (expires_at);

-- access_tokens: personal and agent bearer tokens. Only a hash of the token is stored (value);
-- the plain token is shown once at creation. NEVER exposed raw through /api/db.
CREATE TABLE access_tokens (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  value        text NOT NULL UNIQUE,
  person_id    uuid NOT NULL REFERENCES people(id) ON DELETE CASCADE,
  scopes       text[] NOT NULL DEFAULT '{}',
  expires_at   timestamptz,
  last_used_at timestamptz,
  created_by   uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE INDEX access_tokens_person_id_idx ON access_tokens (person_id);
CREATE INDEX access_tokens_created_by_idx ON access_tokens (created_by);
CREATE INDEX access_tokens_expires_at_idx ON access_tokens (expires_at);
CREATE TRIGGER access_tokens_updated_at BEFORE UPDATE ON access_tokens FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- teams: groups of people; responders to incidents. spec.responder_clients configures the
-- responder types (jira, email, ...) a team offers, with values, defaults and linkUrl.
CREATE TABLE teams (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  icon       text,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  source     text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX teams_name_key ON teams (name) WHERE deleted_at IS NULL;
CREATE INDEX teams_name_idx ON teams (name);
CREATE INDEX teams_created_by_idx ON teams (created_by);
CREATE INDEX teams_created_at_idx ON teams (created_at);
CREATE INDEX teams_deleted_at_idx ON teams (deleted_at);
CREATE TRIGGER teams_updated_at BEFORE UPDATE ON teams FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- team_members: which people belong to which team (junction; /team_members?select=*,person_id(*)).
CREATE TABLE team_members (
  team_id    uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  person_id  uuid NOT NULL REFERENCES people(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, person_id)
);
CREATE INDEX team_members_person_id_idx ON team_members (person_id);

-- saved_searches: named searches a user keeps (incidents, catalog, logs, ...).
CREATE TABLE saved_searches (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  scope      text NOT NULL DEFAULT 'general',
  query      text NOT NULL DEFAULT '',
  created_by uuid REFERENCES people(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX saved_searches_created_by_idx ON saved_searches (created_by);
CREATE INDEX saved_searches_scope_idx ON saved_searches (scope, name);
CREATE TRIGGER saved_searches_updated_at BEFORE UPDATE ON saved_searches FOR EACH ROW EXECUTE FUNCTION set_updated_at();
