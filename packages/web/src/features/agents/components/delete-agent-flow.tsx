import { useState } from 'react';
import { AGENT_MESSAGES, type AgentSummary } from '@watchdeck/core';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { usePatchAgent } from '../api/agents.ts';

/**
 * Deleting an agent (seed 000 section 4): first whether to also delete the resources it created
 * (Yes sets cleanup), then the confirmation of the deletion itself.
 */
export function DeleteAgentFlow({ agent, onDone }: { agent: AgentSummary; onDone: (deleted: boolean) => void }) {
  const [cleanup, setCleanup] = useState<boolean | null>(null);
  const patch = usePatchAgent();
  const remove = async () => {
    try {
      await patch.mutateAsync({
        id: agent.id,
        patch: { deleted_at: new Date().toISOString(), ...(cleanup ? { cleanup: true } : {}) },
      });
      toastSuccess(AGENT_MESSAGES.deleted);
      onDone(true);
    } catch (err) {
      toastError(err);
      throw err;
    }
  };
  if (cleanup === null)
    return (
      <Modal
        open
        onOpenChange={(o) => !o && onDone(false)}
        title="Delete resources"
        size="small"
        footer={
          <>
            <Button onClick={() => setCleanup(false)}>No</Button>
            <Button variant="danger" onClick={() => setCleanup(true)}>
              Yes
            </Button>
          </>
        }
      >
        <p className="text-sm text-gray-700">
          Do you also want to delete the resources agent <strong>{agent.name}</strong> created (its checks, canaries,
          catalog items, scrapers, components and topologies)?
        </p>
      </Modal>
    );
  return (
    <ConfirmDialog
      open
      onOpenChange={(o) => !o && onDone(false)}
      title="Delete agent"
      message={
        <p>
          Delete agent <strong>{agent.name}</strong>
          {cleanup ? ' and the resources it created' : ''}? Its access token stops working at once.
        </p>
      }
      onConfirm={remove}
    />
  );
}
