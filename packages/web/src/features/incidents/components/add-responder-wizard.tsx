import { useState } from 'react';
import { AlertTriangle, Lock } from 'lucide-react';
import {
  INSTANCE_RESPONDER_TYPES,
  RESPONDER_FIELDS,
  RESPONDER_TYPE_LABELS,
  configuredResponderTypes,
  renderTemplate,
  type ResponderClientConfig,
  type ResponderField,
  type TeamResponderType,
} from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { RouteLink } from '#web/components/ui/route-link.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { toastError } from '#web/lib/toast.ts';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { usePeople } from '../api/use-people.ts';
import { useResponderInstances } from '../api/use-responder-instances.ts';
import { useResponderOptions } from '../api/use-responder-options.ts';
import { useTeams } from '../api/use-teams.ts';
import { createResponder } from '../api/create-responder.ts';
import type { IncidentDetail, TeamRef } from '../api/types.ts';
import { CONNECTIONS_ROUTE, RESPONDER_MESSAGES, noConnectionMessage } from '../lib/messages.ts';

/** Integration option search debounce and the size above which an option list gets a filter box (seeds 000/001 section 9). */
const OPTION_SEARCH_MS = 500;
const OPTION_WINDOW = 20;

type Step = 'select' | 'type' | 'details';

function clientOf(team: TeamRef | undefined, type: TeamResponderType | undefined): ResponderClientConfig {
  const clients = (team?.spec as { responder_clients?: Record<string, ResponderClientConfig> } | undefined)
    ?.responder_clients;
  return (type && clients?.[type]) || {};
}

/** The fields a change of `key` empties (a parent clears its dependants). */
function dependantsOf(fields: readonly ResponderField[], key: string): string[] {
  return fields.filter((f) => f.lookup?.dependsOn === key).flatMap((f) => [f.key, ...dependantsOf(fields, f.key)]);
}

function LookupSelect({
  id,
  field,
  connectionId,
  values,
  value,
  onChange,
  invalid,
}: {
  id: string;
  field: ResponderField;
  connectionId: string | undefined;
  values: Record<string, string>;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
}) {
  const parent = field.lookup?.dependsOn;
  const [filter, setFilter] = useState('');
  const q = useDebouncedValue(filter, OPTION_SEARCH_MS);
  const ready = !!connectionId && (!parent || !!values[parent]);
  const options = useResponderOptions(
    {
      connectionId,
      field: field.key,
      project: values.project || undefined,
      plan: values.plan_id || undefined,
      q: q || undefined,
    },
    ready,
  );
  const list = options.data?.options ?? [];
  return (
    <div className="space-y-1">
      {(list.length > OPTION_WINDOW || filter) && (
        <input
          type="search"
          aria-label={`Filter ${field.label}`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          className={cn(inputClass(), 'py-1')}
          placeholder="Search"
        />
      )}
      <div className="flex items-center gap-2">
        <select
          id={id}
          value={value}
          disabled={!ready}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid || undefined}
          className={inputClass(invalid)}
        >
          <option value="">
            {!ready
              ? parent
                ? `Choose the ${parent === 'plan_id' ? 'plan' : parent} first`
                : 'Choose the instance first'
              : 'Select'}
          </option>
          {value && !list.some((o) => o.value === value) && <option value={value}>{value}</option>}
          {list.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {options.isFetching && <Spinner size={14} />}
      </div>
      {options.error && <p className="text-xs text-red-600">{options.error.message}</p>}
    </div>
  );
}

/**
 * The Add responder wizard (seed 001 sections 4 and 5): Select Responder (a team or a person,
 * one of the two). A person is added at once with Add; a team goes on to its Responder Type, then
 * the type's fields, prefilled from the team's configuration (templates over the form and the
 * incident; fixed values lock the field), every one required, Save Team Responder. Back returns
 * one step.
 */
export function AddResponderWizard({
  incident,
  onClose,
  onAdded,
}: {
  incident: IncidentDetail;
  onClose: () => void;
  onAdded: () => void;
}) {
  const me = useWhoami().user.id;
  const teams = useTeams();
  const people = usePeople();
  const [step, setStep] = useState<Step>('select');
  const [teamId, setTeamId] = useState('');
  const [personId, setPersonId] = useState('');
  const [type, setType] = useState<TeamResponderType | undefined>();
  /** what the person typed or chose, by field */
  const [values, setValues] = useState<Record<string, string>>({});
  const [chosenInstance, setInstance] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  const team = teams.data?.find((t) => t.id === teamId);
  const types = configuredResponderTypes(team?.spec);
  const client = clientOf(team, type);
  const fields = type ? RESPONDER_FIELDS[type] : [];
  const fixed = client.values ?? {};
  const needsInstance = !!type && INSTANCE_RESPONDER_TYPES.includes(type);
  const instances = useResponderInstances(step === 'details' && needsInstance ? type : undefined, teamId || undefined);
  // the instance is auto-chosen (and locked) when the team names one, or when there is only one
  const instanceList = instances.data?.instances ?? [];
  const instance =
    chosenInstance || (instances.data?.locked || instanceList.length === 1 ? (instanceList[0]?.id ?? '') : '');

  // What each field shows: a fixed value of the team (locked), what the person typed, else the
  // team's default, a template over the form and the incident, evaluated afresh as the form changes.
  const shown = (() => {
    const out: Record<string, string> = {};
    for (const f of fields) {
      if (f.key in fixed) out[f.key] = String(fixed[f.key] ?? '');
      else if (f.key in values) out[f.key] = values[f.key];
      else out[f.key] = '';
    }
    const context = { ...out, incident, team };
    for (const f of fields) {
      if (!(f.key in fixed) && !(f.key in values) && client.defaults?.[f.key] !== undefined)
        out[f.key] = renderTemplate(client.defaults[f.key], context);
    }
    return out;
  })();

  const setField = (key: string, value: string) => {
    setValues((prev) => {
      const next = { ...prev, [key]: value };
      for (const d of dependantsOf(fields, key)) if (!(d in fixed)) next[d] = '';
      return next;
    });
  };

  const missing = (key: string) => !(shown[key] ?? '').trim();
  const instanceMissing = needsInstance && !instance;
  // no connection of this type at all: nothing to choose, nothing to send the ticket through
  const noConnection = needsInstance && instances.isSuccess && instanceList.length === 0;

  const add = async (row: Parameters<typeof createResponder>[0]) => {
    setBusy(true);
    try {
      await createResponder(row);
      onAdded();
    } catch (err) {
      // seed 001 section 8: the error message is shown and the dialog closes
      toastError(err);
    } finally {
      setBusy(false);
      onClose();
    }
  };

  const save = () => {
    setSubmitted(true);
    if (!type || instanceMissing || fields.some((f) => missing(f.key))) return;
    const chosen = instanceList.find((i) => i.id === instance);
    const properties: Record<string, unknown> = { responderType: type };
    for (const f of fields) properties[f.key] = shown[f.key].trim();
    if (chosen) properties.connection = chosen.name;
    void add({ incident_id: incident.id, type, team_id: teamId, created_by: me, properties });
  };

  const title =
    step === 'select'
      ? 'Select Responder'
      : step === 'type'
        ? 'Responder Type'
        : `${RESPONDER_TYPE_LABELS[type!]} details`;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Add Responder"
      description={title}
      size="medium"
      footer={
        <>
          {step !== 'select' && <Button onClick={() => setStep(step === 'details' ? 'type' : 'select')}>Back</Button>}
          {step === 'select' &&
            (personId ? (
              <Button
                variant="primary"
                disabled={busy}
                onClick={() =>
                  void add({
                    incident_id: incident.id,
                    type: 'person',
                    person_id: personId,
                    created_by: me,
                    properties: { responderType: 'person', person: personId },
                  })
                }
              >
                {busy && <Spinner size={14} />}
                Add
              </Button>
            ) : (
              <Button variant="primary" disabled={!teamId} onClick={() => setStep('type')}>
                Next
              </Button>
            ))}
          {step === 'type' && (
            <Button
              variant="primary"
              disabled={!type}
              onClick={() => {
                setValues({});
                setInstance('');
                setSubmitted(false);
                setStep('details');
              }}
            >
              Next
            </Button>
          )}
          {step === 'details' && (
            <Button variant="primary" disabled={busy || noConnection} onClick={save}>
              {busy && <Spinner size={14} />}
              Save Team Responder
            </Button>
          )}
        </>
      }
    >
      {step === 'select' && (
        <div className="grid grid-cols-2 gap-4">
          <label className="block space-y-1 text-sm font-medium text-gray-700">
            <span>Team</span>
            <select
              value={teamId}
              onChange={(e) => {
                setTeamId(e.target.value);
                if (e.target.value) setPersonId('');
                setType(undefined);
              }}
              className={inputClass()}
            >
              <option value="">Select a team</option>
              {(teams.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block space-y-1 text-sm font-medium text-gray-700">
            <span>Person</span>
            <select
              value={personId}
              onChange={(e) => {
                setPersonId(e.target.value);
                if (e.target.value) setTeamId('');
              }}
              className={inputClass()}
            >
              <option value="">Select a person</option>
              {(people.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}

      {step === 'type' &&
        (types.length === 0 ? (
          <p className="text-sm text-gray-600">{RESPONDER_MESSAGES.noTypes}</p>
        ) : (
          <div role="radiogroup" aria-label="Responder Type" className="grid grid-cols-3 gap-2">
            {types.map((t) => (
              <button
                key={t}
                type="button"
                role="radio"
                aria-checked={type === t}
                onClick={() => setType(t)}
                className={cn(
                  'rounded-md border px-3 py-2 text-sm',
                  type === t ? 'border-blue-600 bg-blue-50 text-blue-800' : 'border-gray-200 hover:bg-gray-50',
                )}
              >
                {RESPONDER_TYPE_LABELS[t]}
              </button>
            ))}
          </div>
        ))}

      {step === 'details' && type && noConnection && (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <AlertTriangle size={16} className="mt-0.5 shrink-0 text-amber-600" aria-hidden />
          <p>
            {noConnectionMessage(RESPONDER_TYPE_LABELS[type])}{' '}
            <RouteLink
              to={CONNECTIONS_ROUTE}
              className="font-medium text-blue-700 underline"
              textClassName="font-medium"
            >
              Add a {RESPONDER_TYPE_LABELS[type]} connection
            </RouteLink>{' '}
            in Settings, Connections, then add this responder again.
          </p>
        </div>
      )}

      {step === 'details' && type && !noConnection && (
        <div className="space-y-3">
          {needsInstance && (
            <div className="space-y-1">
              <label htmlFor="responder-instance" className="flex items-center gap-1 text-sm font-medium text-gray-700">
                Instance{' '}
                {instances.data?.locked && <Lock size={12} className="text-gray-400" aria-label="set by the team" />}
              </label>
              <select
                id="responder-instance"
                value={instance}
                disabled={instances.data?.locked}
                onChange={(e) => {
                  setInstance(e.target.value);
                  setValues((prev) => {
                    const next = { ...prev };
                    for (const f of fields) if (f.lookup && !(f.key in fixed)) next[f.key] = '';
                    return next;
                  });
                }}
                aria-invalid={(submitted && instanceMissing) || undefined}
                className={inputClass(submitted && instanceMissing)}
              >
                <option value="">{instances.isLoading ? 'Loading...' : 'Select'}</option>
                {(instances.data?.instances ?? []).map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.name}
                  </option>
                ))}
              </select>
              {instances.error && <p className="text-xs text-red-600">{instances.error.message}</p>}
              {submitted && instanceMissing && (
                <p role="alert" className="text-xs text-red-600">
                  {RESPONDER_MESSAGES.invalid}
                </p>
              )}
            </div>
          )}
          {fields.map((f) => {
            const id = `responder-${f.key}`;
            const locked = f.key in fixed;
            const invalid = submitted && missing(f.key);
            return (
              <div key={f.key} className="space-y-1">
                <label htmlFor={id} className="flex items-center gap-1 text-sm font-medium text-gray-700">
                  {f.label}
                  <span className="text-red-500" aria-hidden>
                    *
                  </span>
                  {locked && <Lock size={12} className="text-gray-400" aria-label="set by the team" />}
                </label>
                {f.lookup && !locked ? (
                  <LookupSelect
                    id={id}
                    field={f}
                    connectionId={instance || undefined}
                    values={shown}
                    value={shown[f.key] ?? ''}
                    onChange={(v) => setField(f.key, v)}
                    invalid={invalid}
                  />
                ) : f.multiline ? (
                  <textarea
                    id={id}
                    rows={3}
                    value={shown[f.key] ?? ''}
                    disabled={locked}
                    onChange={(e) => setField(f.key, e.target.value)}
                    aria-invalid={invalid || undefined}
                    className={inputClass(invalid)}
                  />
                ) : (
                  <input
                    id={id}
                    value={shown[f.key] ?? ''}
                    disabled={locked}
                    onChange={(e) => setField(f.key, e.target.value)}
                    aria-invalid={invalid || undefined}
                    className={inputClass(invalid)}
                  />
                )}
                {invalid && (
                  <p role="alert" className="text-xs text-red-600">
                    {RESPONDER_MESSAGES.invalid}
                  </p>
                )}
              </div>
            );
          })}
        </div>
      )}
    </Modal>
  );
}
