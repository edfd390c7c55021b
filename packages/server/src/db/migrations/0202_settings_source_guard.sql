-- 0202: a settings resource that comes from somewhere else (source KubernetesCRD, a GitOps sync,
-- ...) is changed there, not by a person in the console (seed 002 sections 4 and 5: no Save
-- unless the source is UI or empty; the source is read-only). The web app hides Save, Update
-- and Delete for such a row; this refuses the write itself: an UPDATE (a PATCH, a soft delete,
-- an upsert) or DELETE made for a person, i.e. with request.person_id set as the /api/db engine
-- sets it for every write (0102). Engines and loaders set no person and stay free to write; so
-- do the foreign keys' own updates (created_by set null when a person goes: trigger depth 2).
-- RAISE SQLSTATE 'PT409' answers 409 through /api/db with this message.

-- The functions, triggers and views of this change are kept in settings/sql/30-settings.sql.
