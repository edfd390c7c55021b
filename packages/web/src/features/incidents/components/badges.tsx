import {
  Activity,
  ClipboardCheck,
  DollarSign,
  Gauge,
  LifeBuoy,
  Plug,
  ShieldAlert,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import type { IncidentSeverity, IncidentStatus, IncidentType } from '@watchdeck/core';
import { cn } from '../../../lib/cn.ts';
import { SEVERITY_CLASSES, SEVERITY_LABELS, STATUS_CLASSES, STATUS_LABELS, TYPE_LABELS } from '../lib/display.ts';

const TYPE_ICONS: Record<IncidentType, LucideIcon> = {
  cost: DollarSign,
  availability: Activity,
  performance: Gauge,
  security: ShieldAlert,
  integration: Plug,
  compliance: ClipboardCheck,
  technicalDebt: Wrench,
  reliability: LifeBuoy,
};

export function SeverityBadge({ severity }: { severity: IncidentSeverity }) {
  return (
    <span
      data-severity={severity}
      className={cn('inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', SEVERITY_CLASSES[severity] ?? SEVERITY_CLASSES.info)}
    >
      {SEVERITY_LABELS[severity] ?? severity}
    </span>
  );
}

export function StatusBadge({ status }: { status: IncidentStatus }) {
  return (
    <span data-status={status} className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium', STATUS_CLASSES[status] ?? STATUS_CLASSES.new)}>
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}

export function TypeLabel({ type }: { type: IncidentType }) {
  const Icon = TYPE_ICONS[type] ?? Activity;
  return (
    <span className="inline-flex items-center gap-1.5 text-gray-700">
      <Icon size={14} className="text-gray-400" aria-hidden />
      {TYPE_LABELS[type] ?? type}
    </span>
  );
}
