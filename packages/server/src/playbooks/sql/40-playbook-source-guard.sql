-- A playbook synced from files (source other than UI) is changed in its files, not in the console:
-- the settings area's guard (settings/sql/30-settings.sql, hence this file's larger number)
-- refuses an update or delete made for a person with 409. The sync writes with no person.
DROP TRIGGER IF EXISTS playbooks_source_guard ON playbooks;
CREATE TRIGGER playbooks_source_guard BEFORE UPDATE OR DELETE ON playbooks
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Playbook');
