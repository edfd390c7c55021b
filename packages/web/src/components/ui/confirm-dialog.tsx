import { useState, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';
import { Spinner } from './spinner.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  /** closes the dialog when it resolves; a rejection keeps it open (the caller reports it) */
  onConfirm: () => Promise<unknown> | void;
  danger?: boolean;
}

/** "Are you sure?" with Cancel and one action; the action shows a spinner while it runs. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel = 'Delete',
  onConfirm,
  danger = true,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // the caller has shown the error; stay open so it can be retried or cancelled
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      size="very-small"
      footer={
        <>
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={() => void confirm()} disabled={busy}>
            {busy && <Spinner size={14} />}
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="text-sm text-gray-700">{message}</div>
    </Modal>
  );
}
