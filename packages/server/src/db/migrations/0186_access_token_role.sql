-- 0186: scoped personal access tokens (auth/tokens.ts). role NULL: the token acts with its
-- owner's current roles (as before); a role: it acts with that role, never more than the owner
-- has at the time of the request. Checked against core's ROLES by the server, not here, so a
-- role added later needs no migration.
ALTER TABLE access_tokens ADD COLUMN role text;
