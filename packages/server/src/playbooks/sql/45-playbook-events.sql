-- Playbook events on the bus (jobs/README.md), for notification rules (seed 002 section 3's
-- event choices). Published by triggers so every writer counts: the approve route, a sync, /api/db.
-- Every statement can run again.

-- playbook.approval.inserted: an approval of a waiting run was recorded (one per approval row).
CREATE OR REPLACE FUNCTION publish_playbook_approval() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM publish_event('playbook.approval.inserted', NEW.id::text,
    jsonb_build_object('run_id', NEW.run_id, 'approval_id', NEW.id, 'person_id', NEW.person_id,
      'team_id', NEW.team_id, 'playbook_id', (SELECT playbook_id FROM playbook_runs WHERE id = NEW.run_id)));
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS playbook_approvals_publish ON playbook_approvals;
CREATE TRIGGER playbook_approvals_publish AFTER INSERT ON playbook_approvals
  FOR EACH ROW EXECUTE FUNCTION publish_playbook_approval();

-- playbook.spec.approval.updated: a live playbook's approval rule (spec.approval) changed, by a
-- person's edit or a sync. The transaction id makes each change its own event.
CREATE OR REPLACE FUNCTION publish_playbook_spec_approval() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.deleted_at IS NULL AND (NEW.spec -> 'approval') IS DISTINCT FROM (OLD.spec -> 'approval') THEN
    PERFORM publish_event('playbook.spec.approval.updated', NEW.id::text || '/' || txid_current()::text,
      jsonb_build_object('playbook_id', NEW.id, 'name', NEW.name, 'source', NEW.source,
        'approval', NEW.spec -> 'approval'));
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS playbooks_publish_approval ON playbooks;
CREATE TRIGGER playbooks_publish_approval AFTER UPDATE OF spec ON playbooks
  FOR EACH ROW EXECUTE FUNCTION publish_playbook_spec_approval();
