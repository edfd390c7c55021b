-- 0400: the bearer tokens the switch route mints (issue 21, organizations/README.md), recorded in
-- the control plane with the root session they were minted for: signing out of that session
-- revokes them in every organisation's schema, and removing a member or deleting the
-- organisation finds them here too. Schema-qualified and IF NOT EXISTS like 0320: run inside an
-- organisation's schema it does nothing.
CREATE TABLE IF NOT EXISTS watchdeck_control.organization_tokens (
  token_id        uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES watchdeck_control.organizations (id) ON DELETE CASCADE,
  person_id       uuid NOT NULL,
  -- the root backend's session the switch was asked with (identity_sessions or oidc_sessions)
  session_id      uuid,
  expires_at      timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS organization_tokens_session_idx ON watchdeck_control.organization_tokens (session_id);
CREATE INDEX IF NOT EXISTS organization_tokens_person_idx ON watchdeck_control.organization_tokens (person_id);
