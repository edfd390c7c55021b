-- 0100: what the own identity service needs beyond 0001 (identities, identity_credentials,
-- identity_sessions, identity_flows, identity_tokens and access_tokens live there).
--
-- Secrets stay out of /api/db: none of identity_credentials, identity_sessions, identity_flows,
-- identity_tokens, identity_errors or access_tokens may appear in db/exposed.ts.

-- identity_errors: self-service flow errors (expired flow, CSRF violation, forbidden return_to,
-- ...) kept so the browser's flow-error page can fetch them by id (GET /api/auth/errors/:id).
-- Pruned with expired flows. NEVER exposed through /api/db.
CREATE TABLE identity_errors (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  error      jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_errors_created_at_idx ON identity_errors (created_at);

