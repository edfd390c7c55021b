import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { INCIDENT_DEFAULTS, INCIDENT_STATUSES, INCIDENT_TYPES, SEVERITIES } from '@watchdeck/core';
import {
  SelectField,
  TextAreaField,
  TextField,
  requiredText,
  FIELD_REQUIRED_MESSAGE,
} from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { useBusy } from '#web/lib/use-busy.ts';
import { createIncident } from '../api/create-incident.ts';
import { SEVERITY_LABELS, STATUS_LABELS, TYPE_LABELS } from '../lib/display.ts';

/**
 * Create New Incident (seed 001 sections 2 and 5): title required, description optional, severity,
 * status and type required and known; defaults availability, Low, open. The incident and its root
 * hypothesis are made in one transaction; a failure is shown and the dialog stays open.
 */
const schema = z.object({
  title: requiredText(),
  description: z.string(),
  severity: z.enum(SEVERITIES, { message: FIELD_REQUIRED_MESSAGE }),
  status: z.enum(INCIDENT_STATUSES, { message: FIELD_REQUIRED_MESSAGE }),
  type: z.enum(INCIDENT_TYPES, { message: FIELD_REQUIRED_MESSAGE }),
});
type Values = z.infer<typeof schema>;

const DEFAULTS: Values = { title: '', description: '', ...INCIDENT_DEFAULTS };

export function CreateIncidentModal({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (id: string) => void;
}) {
  const form = useForm<Values>({ mode: 'onTouched', resolver: zodResolver(schema), defaultValues: DEFAULTS });
  const [busy, run] = useBusy();

  const submit = form.handleSubmit(async (v) => {
    await run(async () => {
      const created = await createIncident(v);
      form.reset(DEFAULTS);
      onCreated(created.id);
    });
  });

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(DEFAULTS);
        onOpenChange(next);
      }}
      title="Create New Incident"
      size="medium"
      footer={
        <Button variant="primary" type="submit" form="create-incident" disabled={busy}>
          {busy ? 'Creating...' : 'Create'}
        </Button>
      }
    >
      <FormProvider {...form}>
        <form id="create-incident" onSubmit={submit} className="space-y-4" noValidate>
          <TextField<Values> name="title" label="Title" required autoFocus placeholder="What is happening?" />
          <TextAreaField<Values> name="description" label="Description" rows={4} />
          <div className="grid grid-cols-3 gap-3">
            <SelectField<Values>
              name="severity"
              label="Severity"
              required
              options={SEVERITIES.map((s) => ({ value: s, label: SEVERITY_LABELS[s] }))}
            />
            <SelectField<Values>
              name="status"
              label="Status"
              required
              options={INCIDENT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            />
            <SelectField<Values>
              name="type"
              label="Type"
              required
              options={INCIDENT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
            />
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}
