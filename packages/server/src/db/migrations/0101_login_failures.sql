-- 0101: failed password sign-ins, for the brute-force brake of the login flow
-- (auth/login-throttle.ts). One row per failed attempt, keyed by a hash of the normalised
-- identifier and the client address, so the table never holds an email address or an IP in clear.
-- Rows older than the throttle window are pruned hourly. NEVER exposed through /api/db.
CREATE TABLE identity_login_failures (
  key_hash  text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_login_failures_key_idx ON identity_login_failures (key_hash, failed_at);
CREATE INDEX identity_login_failures_failed_at_idx ON identity_login_failures (failed_at);
