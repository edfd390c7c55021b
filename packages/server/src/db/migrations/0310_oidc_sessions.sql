-- 0310: sign-in through an OpenID Connect provider (AUTH=oidc, auth/oidc-provider.ts).
--
-- A session signed in through the provider keeps the provider's refresh and ID tokens, sealed
-- with the connection secrets' key (AES-256-GCM), and when the provider's access token runs out:
-- the session is refreshed from the provider then, or ends. NEVER exposed through /api/db.
ALTER TABLE identity_sessions ADD COLUMN provider_tokens text;
ALTER TABLE identity_sessions ADD COLUMN provider_expires_at timestamptz;

-- The provider's subject ('<issuer> <sub>', identity_credentials type 'oidc') belongs to one
-- identity only: two sign-ins racing to create the same user cannot both win.
CREATE UNIQUE INDEX identity_credentials_oidc_subject_key
  ON identity_credentials ((identifiers[1])) WHERE type = 'oidc';
