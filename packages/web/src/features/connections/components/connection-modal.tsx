import { useState } from 'react';
import { connectionTypeDef, type ConnectionTypeDef } from '@watchdeck/core';
import { Modal } from '#web/components/ui/modal.tsx';
import type { ConnectionRow } from '../api/use-connections.ts';
import { ConnectionForm } from './connection-form.tsx';
import { TypeChooser } from './type-chooser.tsx';

export interface ConnectionModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** the connection to edit; undefined opens the type chooser for a new one */
  row?: ConnectionRow;
  canWrite: boolean;
}

/**
 * The add/edit dialog (seed 002 section 2.12): a new connection starts at the type chooser, then
 * shows that type's form; an existing one opens on its form.
 */
export function ConnectionModal({ open, onOpenChange, row, canWrite }: ConnectionModalProps) {
  const [chosen, setChosen] = useState<ConnectionTypeDef | null>(null);
  const def = row ? connectionTypeDef(row.type) : chosen;
  const close = () => {
    setChosen(null);
    onOpenChange(false);
  };
  const title = row ? 'Edit Connection' : 'Add Connection';
  return (
    <Modal
      open={open}
      onOpenChange={(o) => (o ? onOpenChange(true) : close())}
      title={title}
      size={def ? 'medium' : 'large'}
      dismissOnOutsideClick={false}
    >
      {row && !def ? (
        <p role="alert" className="text-sm text-red-700">
          Unknown connection type '{row.type}'.
        </p>
      ) : def ? (
        <ConnectionForm
          key={row?.id ?? def.type}
          def={def}
          row={row ?? null}
          canWrite={canWrite}
          onSaved={close}
          onDeleted={close}
          onBack={row ? undefined : () => setChosen(null)}
        />
      ) : (
        <TypeChooser onChoose={setChosen} />
      )}
    </Modal>
  );
}
