import { useId } from 'react';
import {
  AGENT_MESSAGES,
  agentFormSchema,
  type AgentForm,
  type AgentSummary,
  type GeneratedAgent,
} from '@watchdeck/core';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useGenerateAgent, usePatchAgent } from '../api/agents.ts';
import {
  AgentForm as AgentFormFields,
  EMPTY_AGENT,
  toInput,
  useAgentForm,
  valuesOf,
  type AgentFormValues,
} from './agent-form.tsx';
import { ParkedPushes } from './parked-pushes.tsx';

/** Create: the form, then (on success) the caller opens the installation instructions. */
export function CreateAgentModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (agent: GeneratedAgent, form: AgentForm) => void;
}) {
  const formId = useId();
  const form = useAgentForm(EMPTY_AGENT);
  const generate = useGenerateAgent();
  const submit = async (values: AgentFormValues) => {
    const parsed = agentFormSchema.safeParse(toInput(values));
    if (!parsed.success) return void toastError(new Error(parsed.error.issues[0].message));
    const input = parsed.data;
    try {
      const agent = await generate.mutateAsync(input);
      toastSuccess(AGENT_MESSAGES.created);
      onCreated(agent, input);
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Create Agent"
      size="medium"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form={formId} disabled={generate.isPending}>
            {generate.isPending ? 'Saving…' : 'Save'}
          </Button>
        </>
      }
    >
      <AgentFormFields id={formId} form={form} mode="create" onSubmit={submit} />
    </Modal>
  );
}

/**
 * Edit: the name read-only; Delete starts the two-step deletion (the caller shows it). Below the
 * form, the agent's parked pushes (wider when it has some: the table needs the room).
 */
export function EditAgentModal({
  agent,
  canWrite,
  onClose,
  onDelete,
}: {
  agent: AgentSummary;
  canWrite: boolean;
  onClose: () => void;
  onDelete: () => void;
}) {
  const formId = useId();
  const form = useAgentForm(valuesOf(agent));
  const patch = usePatchAgent();
  const submit = async (values: AgentFormValues) => {
    const parsed = agentFormSchema.safeParse(toInput({ ...values, name: agent.name }));
    if (!parsed.success) return void toastError(new Error(parsed.error.issues[0].message));
    const input = parsed.data;
    try {
      await patch.mutateAsync({
        id: agent.id,
        patch: {
          description: input.description ?? null,
          properties: input.properties,
          spec: { kubernetes: input.kubernetes, pushTelemetry: input.pushTelemetry },
        },
      });
      toastSuccess(AGENT_MESSAGES.updated);
      onClose();
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Edit Agent ${agent.name}`}
      size={Number(agent.parked_count) > 0 ? 'large' : 'medium'}
      footer={
        canWrite ? (
          <>
            <Button variant="danger" className="mr-auto" onClick={onDelete}>
              Delete
            </Button>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" type="submit" form={formId} disabled={patch.isPending}>
              {patch.isPending ? 'Saving…' : 'Save'}
            </Button>
          </>
        ) : (
          <Button onClick={onClose}>Close</Button>
        )
      }
    >
      <AgentFormFields id={formId} form={form} mode="edit" onSubmit={submit} />
      <ParkedPushes agentId={agent.id} canWrite={canWrite} />
    </Modal>
  );
}
