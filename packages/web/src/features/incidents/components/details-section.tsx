import { useState, type ReactNode } from 'react';
import { INCIDENT_TYPES, SEVERITIES, type IncidentSeverity, type IncidentType } from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { toastError } from '#web/lib/toast.ts';
import { useDebouncedCallback } from '#web/lib/use-debounced.ts';
import { usePeople } from '../api/use-people.ts';
import { updateIncident } from '../api/update-incident.ts';
import type { IncidentDetail, PersonRef } from '../api/types.ts';
import { SEVERITY_LABELS, TYPE_LABELS } from '../lib/display.ts';
import { StatusBadge } from './badges.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';

/** Severity and type changes save 500 ms after the last choice (seed 001 section 4). */
const DETAILS_SAVE_MS = 500;
/** What the severity field shows for an incident without one. */
const DEFAULT_SEVERITY: IncidentSeverity = 'high';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] items-center gap-2 py-1 text-sm">
      <dt className="text-gray-500">{label}</dt>
      <dd className="min-w-0 text-gray-900">{children}</dd>
    </div>
  );
}

function PersonLabel({ person }: { person: PersonRef | null }) {
  if (!person) return <span className="text-gray-400">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5">
      <Avatar person={person} />
      <span className="truncate">{person.name}</span>
    </span>
  );
}

/** The Details section of the side panel: the incident's fields, severity and type editable. */
export function DetailsSection({
  incident,
  canWrite,
  onChanged,
  responders,
}: {
  incident: IncidentDetail;
  canWrite: boolean;
  onChanged: () => void;
  responders: ReactNode;
}) {
  const people = usePeople();
  // a choice shows at once and stays until its save has come back; then the server's value rules
  const [severityDraft, setSeverity] = useState<IncidentSeverity | null>(null);
  const [typeDraft, setType] = useState<IncidentType | null>(null);
  const severity = severityDraft ?? incident.severity ?? DEFAULT_SEVERITY;
  const type = typeDraft ?? incident.type;

  const save = async (patch: Parameters<typeof updateIncident>[1]) => {
    try {
      await updateIncident(incident.id, patch);
    } catch (err) {
      toastError(err);
    }
    onChanged(); // the server's value (new, or unchanged after a refusal) comes back
  };
  const saveSeverity = useDebouncedCallback(async (s: IncidentSeverity) => {
    await save({ severity: s });
    setSeverity((d) => (d === s ? null : d));
  }, DETAILS_SAVE_MS);
  const saveType = useDebouncedCallback(async (t: IncidentType) => {
    await save({ type: t });
    setType((d) => (d === t ? null : d));
  }, DETAILS_SAVE_MS);

  const personSelect = (label: string, field: 'commander_id' | 'communicator_id', current: PersonRef | null) =>
    canWrite ? (
      <select
        aria-label={label}
        value={incident[field] ?? ''}
        onChange={(e) => void save({ [field]: e.target.value || null })}
        className={`${inputClass()} py-1`}
      >
        <option value="">Not assigned</option>
        {(people.data ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    ) : (
      <PersonLabel person={current} />
    );

  const ackAfter = incident.acknowledged
    ? new Date(incident.acknowledged).getTime() - new Date(incident.created_at).getTime()
    : null;
  return (
    <dl>
      <Row label="Incident">
        <span className="font-mono text-xs">{incident.incident_id}</span>
      </Row>
      <Row label="Status">
        <StatusBadge status={incident.status} />
      </Row>
      <Row label="Severity">
        <select
          aria-label="Severity"
          value={severity}
          disabled={!canWrite}
          onChange={(e) => {
            const s = e.target.value as IncidentSeverity;
            setSeverity(s);
            saveSeverity(s);
          }}
          className={`${inputClass()} py-1`}
        >
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_LABELS[s]}
            </option>
          ))}
        </select>
      </Row>
      <Row label="Type">
        <select
          aria-label="Type"
          value={type}
          disabled={!canWrite}
          onChange={(e) => {
            const t = e.target.value as IncidentType;
            setType(t);
            saveType(t);
          }}
          className={`${inputClass()} py-1`}
        >
          {INCIDENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </Row>
      <Row label="Commander">{personSelect('Commander', 'commander_id', incident.commander)}</Row>
      <Row label="Communicator">{personSelect('Communicator', 'communicator_id', incident.communicator)}</Row>
      <Row label="Created by">
        <PersonLabel person={incident.creator} />
      </Row>
      <Row label="Created">
        <RelativeTime at={incident.created_at} fallback={<span className="text-gray-400">—</span>} />
      </Row>
      <Row label="Acknowledged">
        {incident.acknowledged ? (
          <span>
            <RelativeTime at={incident.acknowledged} fallback={<span className="text-gray-400">—</span>} />{' '}
            <span className="text-xs text-gray-500">(after {formatDuration(ackAfter)})</span>
          </span>
        ) : (
          <span className="text-gray-400">—</span>
        )}
      </Row>
      <Row label="Resolved">
        <RelativeTime at={incident.resolved} fallback={<span className="text-gray-400">—</span>} />
      </Row>
      <Row label="Closed">
        <RelativeTime at={incident.closed} fallback={<span className="text-gray-400">—</span>} />
      </Row>
      <div className="pt-2">
        <dt className="mb-1 text-sm text-gray-500">Responders</dt>
        <dd>{responders}</dd>
      </div>
    </dl>
  );
}
