import { Modal } from '#web/components/ui/modal.tsx';
import type { RuleRow } from '../api/types.ts';
import { RuleForm } from './rule-form.tsx';

/** The create / edit dialog of a rule; closing it (Escape, Cancel, the cross) leaves the form unsaved. */
export function RuleModal({ rule, open, onClose }: { rule: RuleRow | null; open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={rule ? 'Edit Notification Rule' : 'Add Notification Rule'}
      size="medium"
      dismissOnOutsideClick={false}
    >
      <RuleForm key={rule?.id ?? 'new'} rule={rule} onDone={onClose} />
    </Modal>
  );
}
