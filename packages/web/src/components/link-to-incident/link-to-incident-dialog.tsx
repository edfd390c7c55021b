import { useId, useState, type ReactNode } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { toast } from 'sonner';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Paperclip } from 'lucide-react';
import { INCIDENT_TYPE_LABELS, INCIDENT_TYPES, SEVERITIES, SEVERITY_LABELS } from '@watchdeck/core';
import { FormField, TextAreaField, TextField, inputClass } from '../forms/index.ts';
import { Button } from '../ui/button.tsx';
import { Modal } from '../ui/modal.tsx';
import { AccessGuard, FeatureGuard } from '../auth/index.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { toastError } from '#web/lib/toast.ts';
import { linkToIncident, useHypotheses, useOpenIncidents, type EvidenceTarget } from './api.ts';

const LINK_TITLE = 'Link to Incident';
const LINK_SUCCESS = 'Linked to incident successfully';
const LINK_SUCCESS_DURATION_MS = 5000;
const MESSAGES = {
  incident: 'Must select or create an incident',
  hypothesis: 'Must select or create a hypothesis',
  severity: 'Please select incident severity',
  type: 'Please select an incident type',
} as const;

/** The incident and hypothesis pickers' "make a new one" choice. */
const NEW = 'new';

const schema = z
  .object({
    incidentId: z.string(),
    incidentTitle: z.string(),
    description: z.string(),
    hypothesisId: z.string(),
    hypothesisTitle: z.string(),
    type: z.string(),
    severity: z.string(),
  })
  .superRefine((v, ctx) => {
    const creating = v.incidentId === NEW;
    // an incident: an existing one, or a description to create one from
    if (!v.incidentId || (creating && !v.incidentTitle.trim())) {
      ctx.addIssue({ code: 'custom', path: [creating ? 'incidentTitle' : 'incidentId'], message: MESSAGES.incident });
    }
    if (v.incidentId && !creating && (!v.hypothesisId || (v.hypothesisId === NEW && !v.hypothesisTitle.trim()))) {
      ctx.addIssue({
        code: 'custom',
        path: [v.hypothesisId === NEW ? 'hypothesisTitle' : 'hypothesisId'],
        message: MESSAGES.hypothesis,
      });
    }
    if (creating && !v.severity) ctx.addIssue({ code: 'custom', path: ['severity'], message: MESSAGES.severity });
    if (creating && !v.type) ctx.addIssue({ code: 'custom', path: ['type'], message: MESSAGES.type });
  });

type Values = z.infer<typeof schema>;

function SelectField({
  name,
  label,
  children,
  error,
  register,
}: {
  name: keyof Values;
  label: string;
  children: ReactNode;
  error?: string;
  register: ReturnType<typeof useForm<Values>>['register'];
}) {
  const id = useId();
  return (
    <FormField label={label} htmlFor={id} error={error}>
      <select id={id} {...register(name)} aria-invalid={!!error || undefined} className={inputClass(!!error)}>
        {children}
      </select>
    </FormField>
  );
}

export interface LinkToIncidentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: EvidenceTarget;
  /** prefilled evidence description (e.g. the check's name and state) */
  defaultDescription?: string;
  title?: string;
  /** told whether the evidence was attached (seed: an evidence failure reports false) */
  onDone?: (ok: boolean) => void;
}

/**
 * The Link to Incident dialog (seed 000): Incident (pick or create), Description, Hypothesis
 * (pick or create), and Type and Severity when a new incident is made (defaults availability and
 * low). 'Link' reads 'Linking..' while busy; success toasts 'Linked to incident successfully' with
 * a link to the incident for 5 seconds.
 */
export function LinkToIncidentDialog({
  open,
  onOpenChange,
  target,
  defaultDescription = '',
  title = LINK_TITLE,
  onDone,
}: LinkToIncidentDialogProps) {
  const whoami = useWhoami();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<Values>({
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: {
      incidentId: NEW,
      incidentTitle: '',
      description: defaultDescription,
      hypothesisId: NEW,
      hypothesisTitle: '',
      type: 'availability',
      severity: 'low',
    },
  });
  const { register, handleSubmit, formState, control } = form;
  const incidentId = useWatch({ control, name: 'incidentId' });
  const hypothesisId = useWatch({ control, name: 'hypothesisId' });
  const existing = !!incidentId && incidentId !== NEW;
  const incidents = useOpenIncidents(open);
  const hypotheses = useHypotheses(existing ? incidentId : undefined);
  const [busy, setBusy] = useState(false);

  const submit = handleSubmit(async (v) => {
    setBusy(true);
    try {
      const result = await linkToIncident({
        incidentId: existing ? v.incidentId : undefined,
        incidentTitle: v.incidentTitle,
        type: v.type,
        severity: v.severity,
        hypothesisId: existing && v.hypothesisId !== NEW ? v.hypothesisId : undefined,
        hypothesisTitle: v.hypothesisTitle,
        description: v.description,
        createdBy: whoami.user.id,
        target,
      });
      if (!result.ok) {
        if (result.stage === 'evidence') toastError(result.error);
        onDone?.(false);
        return;
      }
      void queryClient.invalidateQueries({ queryKey: ['link-to-incident'] });
      // The toaster lives outside the router, so the link navigates through this dialog's router.
      const href = `/incidents/${result.incidentId}`;
      toast.success(
        <span>
          {LINK_SUCCESS}{' '}
          <a
            href={href}
            onClick={(e) => {
              e.preventDefault();
              void navigate(href);
            }}
            className="font-medium underline"
          >
            View incident
          </a>
        </span>,
        { duration: LINK_SUCCESS_DURATION_MS },
      );
      onDone?.(true);
      onOpenChange(false);
      form.reset();
    } finally {
      setBusy(false);
    }
  });

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      size="medium"
      footer={
        <Button variant="primary" type="submit" form="link-to-incident-form" disabled={busy}>
          {busy ? 'Linking..' : 'Link'}
        </Button>
      }
    >
      <FormProvider {...form}>
        <form id="link-to-incident-form" onSubmit={submit} noValidate className="space-y-4">
          <SelectField
            name="incidentId"
            label="Incident"
            error={formState.errors.incidentId?.message}
            register={register}
          >
            <option value={NEW}>Create a new incident</option>
            {incidents.data?.map((i) => (
              <option key={i.id} value={i.id}>
                {i.incident_id} · {i.title}
              </option>
            ))}
          </SelectField>
          {!existing && (
            <TextField<Values> name="incidentTitle" label="Incident description" placeholder="What is wrong?" />
          )}
          <TextAreaField<Values> name="description" label="Description" />
          {existing && (
            <SelectField
              name="hypothesisId"
              label="Hypothesis"
              error={formState.errors.hypothesisId?.message}
              register={register}
            >
              <option value="">Select a hypothesis</option>
              <option value={NEW}>Create a new hypothesis</option>
              {hypotheses.data?.map((h) => (
                <option key={h.id} value={h.id}>
                  {h.title || '(no title)'}
                </option>
              ))}
            </SelectField>
          )}
          {(!existing || hypothesisId === NEW) && (
            <TextField<Values>
              name="hypothesisTitle"
              label="Hypothesis description"
              placeholder="What might be causing it?"
            />
          )}
          {!existing && (
            <div className="grid grid-cols-2 gap-4">
              <SelectField name="type" label="Type" error={formState.errors.type?.message} register={register}>
                <option value="">Select a type</option>
                {INCIDENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {INCIDENT_TYPE_LABELS[t]}
                  </option>
                ))}
              </SelectField>
              <SelectField
                name="severity"
                label="Severity"
                error={formState.errors.severity?.message}
                register={register}
              >
                <option value="">Select a severity</option>
                {SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {SEVERITY_LABELS[s]}
                  </option>
                ))}
              </SelectField>
            </div>
          )}
        </form>
      </FormProvider>
    </Modal>
  );
}

/**
 * 'Attach as Evidence': needs write on incidents and is hidden when the incidents feature is
 * disabled. Opens the Link to Incident dialog for `target`.
 */
export function AttachAsEvidenceButton({
  label = 'Attach as Evidence',
  ...props
}: Omit<LinkToIncidentDialogProps, 'open' | 'onOpenChange'> & {
  /** the button's text ('Link to Incident' on a topology component) */
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <FeatureGuard feature="incidents">
      <AccessGuard resource="incident" action="write">
        <Button onClick={() => setOpen(true)}>
          <Paperclip size={14} aria-hidden /> {label}
        </Button>
        {open && <LinkToIncidentDialog open={open} onOpenChange={setOpen} {...props} />}
      </AccessGuard>
    </FeatureGuard>
  );
}
