-- 0185: the client address a self-service flow was created for, hashed (auth/flows/store.ts), so
-- the live flows of one address can be counted and capped: anonymous GETs of
-- /api/auth/self-service/<type>/browser each write a row. NULL for flows the server creates on
-- its own (invitations, the verification flow after registration). NEVER exposed through /api/db.
ALTER TABLE identity_flows ADD COLUMN client_hash text;
CREATE INDEX identity_flows_client_hash_idx ON identity_flows (client_hash, created_at) WHERE client_hash IS NOT NULL;
