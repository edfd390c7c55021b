import { useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import * as Tabs from '@radix-ui/react-tabs';
import { Lock, Trash2 } from 'lucide-react';
import { z } from 'zod';
import { FIELD_REQUIRED_MESSAGE, SelectField, TextAreaField, TextField } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { tabClass } from '#web/components/ui/tabs.ts';
import { useCan } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useDeleteRule } from '../api/delete-rule.ts';
import { useSaveRule, type RulePayload } from '../api/save-rule.ts';
import { useNotificationConnections, type NotificationConnection } from '../api/use-notification-connections.ts';
import { usePeople } from '../api/use-people.ts';
import { useTeams } from '../api/use-teams.ts';
import type { RuleRow } from '../api/types.ts';
import { REPEAT_INTERVALS, REPEAT_INTERVAL_LABELS, isUiSource } from '../lib/constants.ts';
import { NOTIFICATION_MESSAGES } from '../lib/messages.ts';
import { EventsField } from './events-field.tsx';

type RecipientTab = 'person' | 'team' | 'others';

const schema = z
  .object({
    title: z.string(),
    events: z.array(z.string()).min(1, FIELD_REQUIRED_MESSAGE),
    filter: z.string(),
    template: z.string(),
    repeat_interval: z.string(),
    properties: z.string(),
    recipient: z.enum(['person', 'team', 'others']),
    person_id: z.string(),
    team_id: z.string(),
    connection: z.string(),
  })
  .superRefine((v, ctx) => {
    // one recipient applies: the field of the chosen tab is the one that must be filled
    const field = v.recipient === 'person' ? 'person_id' : v.recipient === 'team' ? 'team_id' : 'connection';
    if (!v[field]) ctx.addIssue({ code: 'custom', path: [field], message: FIELD_REQUIRED_MESSAGE });
    if (v.properties.trim()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v.properties);
      } catch {
        parsed = undefined;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        ctx.addIssue({ code: 'custom', path: ['properties'], message: 'Properties must be a JSON object' });
    }
  });
type RuleValues = z.infer<typeof schema>;

/** custom_services[0].connection is 'connection://{namespace}/{name}' (as GitOps rules write it). */
const connectionRef = (c: NotificationConnection) => `connection://${c.namespace}/${c.name}`;

function initialValues(rule: RuleRow | null): RuleValues {
  const service = rule?.custom_services?.[0];
  const recipient: RecipientTab = rule?.team_id ? 'team' : service ? 'others' : 'person';
  return {
    title: rule?.title ?? '',
    events: rule?.events ?? [],
    filter: rule?.filter ?? '',
    template: rule?.template ?? '',
    repeat_interval: rule?.repeat_interval ?? '',
    properties: rule?.properties ? JSON.stringify(rule.properties, null, 2) : '',
    recipient,
    person_id: rule?.person_id ?? '',
    team_id: rule?.team_id ?? '',
    connection: service?.connection ?? '',
  };
}

function toPayload(v: RuleValues, connections: readonly NotificationConnection[]): RulePayload {
  const text = (s: string) => s.trim() || null;
  const conn = connections.find((c) => connectionRef(c) === v.connection);
  return {
    title: v.title.trim(),
    events: v.events,
    filter: text(v.filter),
    template: text(v.template),
    repeat_interval: v.repeat_interval || null,
    properties: v.properties.trim() ? (JSON.parse(v.properties) as Record<string, unknown>) : null,
    // seed 002 section 7.6: person_id, team_id, custom_services set to null if absent
    person_id: v.recipient === 'person' ? v.person_id : null,
    team_id: v.recipient === 'team' ? v.team_id : null,
    custom_services: v.recipient === 'others' ? [{ name: conn?.name ?? v.connection, connection: v.connection }] : null,
  };
}

export interface RuleFormProps {
  rule: RuleRow | null;
  onDone: () => void;
}

/**
 * Create or edit a rule (seed 002 sections 3-5): title, events (required), a CEL filter, the
 * template, a repeat interval, properties, and one recipient on the tabs Person / Team / Others
 * (choosing a tab clears the other recipients). It can be submitted only when its source is UI
 * (or empty); a rule from elsewhere is shown read-only, without Save.
 */
export function RuleForm({ rule, onDone }: RuleFormProps) {
  const canWrite = useCan('notifications', 'write');
  const uiSource = isUiSource(rule?.source);
  const readOnly = !canWrite || !uiSource;
  const form = useForm<RuleValues>({
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: initialValues(rule),
  });
  const recipient = useWatch({ control: form.control, name: 'recipient' });
  const people = usePeople();
  const teams = useTeams();
  const connections = useNotificationConnections(useCan('connections', 'read'));
  const save = useSaveRule();
  const remove = useDeleteRule();
  const [confirming, setConfirming] = useState(false);

  const connectionOptions = (connections.data ?? []).map((c) => ({
    value: connectionRef(c),
    label: `${c.name} (${c.type})`,
  }));
  // a rule may point at a connection this list does not hold (another namespace, no read access)
  const current = form.getValues('connection');
  if (current && !connectionOptions.some((o) => o.value === current))
    connectionOptions.unshift({ value: current, label: current });

  const chooseTab = (tab: string) => {
    // seed 002 section 4: choosing a recipient tab clears the other recipient fields
    form.setValue('recipient', tab as RecipientTab);
    for (const f of ['person_id', 'team_id', 'connection'] as const) form.setValue(f, '');
    form.clearErrors(['person_id', 'team_id', 'connection']);
  };

  const submit = form.handleSubmit(async (v) => {
    try {
      await save.mutateAsync({ id: rule?.id, payload: toPayload(v, connections.data ?? []) });
      toastSuccess(rule ? NOTIFICATION_MESSAGES.ruleUpdated : NOTIFICATION_MESSAGES.ruleCreated);
      onDone();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Notification rule" className="space-y-4">
        {!uiSource && (
          <p className="flex items-center gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <Lock size={14} aria-hidden /> This rule comes from {rule?.source} and can only be changed there.
          </p>
        )}
        <fieldset disabled={readOnly} className="space-y-4">
          <TextField<RuleValues> name="title" label="Title" placeholder="Failing checks to the SRE team" />
          <EventsField disabled={readOnly} />
          <TextAreaField<RuleValues>
            name="filter"
            label="Filter"
            rows={2}
            placeholder="check.severity == 'critical'"
            hint="A CEL expression over the event and its resource; empty matches every event."
          />
          <TextAreaField<RuleValues>
            name="template"
            label="Template"
            rows={3}
            placeholder="{{.check.name}} is {{.status}}"
            hint="The message body; empty uses the default for the event (resource, status, message and a link)."
          />
          <SelectField<RuleValues>
            name="repeat_interval"
            label="Repeat interval"
            placeholder="None"
            options={REPEAT_INTERVALS.map((r) => ({ value: r, label: REPEAT_INTERVAL_LABELS[r] }))}
            hint="The same event about the same resource is not sent again within it."
          />
          <div className="space-y-1">
            <p className="text-sm font-medium text-gray-700" id="recipient-label">
              Recipient
            </p>
            <Tabs.Root value={recipient} onValueChange={chooseTab}>
              <Tabs.List className="mb-3 flex gap-1 border-b border-gray-200" aria-labelledby="recipient-label">
                <Tabs.Trigger value="person" className={tabClass} disabled={readOnly}>
                  Person
                </Tabs.Trigger>
                <Tabs.Trigger value="team" className={tabClass} disabled={readOnly}>
                  Team
                </Tabs.Trigger>
                <Tabs.Trigger value="others" className={tabClass} disabled={readOnly}>
                  Others
                </Tabs.Trigger>
              </Tabs.List>
              <Tabs.Content value="person">
                <SelectField<RuleValues>
                  name="person_id"
                  label="Person"
                  required
                  placeholder="Select a person"
                  options={(people.data ?? []).map((p) => ({
                    value: p.id,
                    label: p.email ? `${p.name ?? p.email} <${p.email}>` : (p.name ?? p.id),
                  }))}
                  hint="Notified by email."
                />
              </Tabs.Content>
              <Tabs.Content value="team">
                <SelectField<RuleValues>
                  name="team_id"
                  label="Team"
                  required
                  placeholder="Select a team"
                  options={(teams.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                  hint="Notified through the team's notification channels."
                />
              </Tabs.Content>
              <Tabs.Content value="others">
                <SelectField<RuleValues>
                  name="connection"
                  label="Connection"
                  required
                  placeholder="Select a notification connection"
                  options={connectionOptions}
                  hint="A notification connection (Slack, email, a webhook, …) from Settings › Connections."
                />
              </Tabs.Content>
            </Tabs.Root>
          </div>
          <TextAreaField<RuleValues>
            name="properties"
            label="Properties"
            rows={2}
            placeholder='{"slack": {"channel": "#alerts"}}'
            hint='Passed to the sender: {"slack": {"channel": "#alerts"}}; {"waitFor": "5m"} holds a send that recovery may cancel.'
          />
        </fieldset>
        <div className="flex items-center justify-end gap-2 border-t border-gray-200 pt-3">
          {rule && canWrite && uiSource && (
            <Button variant="danger" className="mr-auto" onClick={() => setConfirming(true)}>
              <Trash2 size={14} aria-hidden /> Delete
            </Button>
          )}
          <Button onClick={onDone}>{readOnly ? 'Close' : 'Cancel'}</Button>
          {!readOnly && (
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {save.isPending && <Spinner size={14} className="text-white" />}
              {rule ? 'Update' : 'Save'}
            </Button>
          )}
        </div>
      </form>
      {rule && (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={NOTIFICATION_MESSAGES.deleteRuleTitle}
          message={`Delete the rule '${rule.title || rule.name || rule.id}'? Its send history is kept.`}
          onConfirm={async () => {
            try {
              await remove.mutateAsync(rule.id);
            } catch (err) {
              toastError(err);
              throw err;
            }
            toastSuccess(NOTIFICATION_MESSAGES.ruleDeleted);
            onDone();
          }}
        />
      )}
    </FormProvider>
  );
}
