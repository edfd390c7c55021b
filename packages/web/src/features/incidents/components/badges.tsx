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
import { cn } from '#web/lib/cn.ts';
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
      className={cn(
        'inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        SEVERITY_CLASSES[severity] ?? SEVERITY_CLASSES.info,
      )}
    >
      {SEVERITY_LABELS[severity] ?? severity}
    </span>
  );
}

export function StatusBadge({ status }: { status: IncidentStatus }) {
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium',
        STATUS_CLASSES[status] ?? STATUS_CLASSES.new,
      )}
    >
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}

/** The type's icon and name; `labelClassName` can hide the name visually (it stays for screen readers and in the tooltip). */
export function TypeLabel({ type, labelClassName }: { type: IncidentType; labelClassName?: string }) {
  const Icon = TYPE_ICONS[type] ?? Activity;
  const label = TYPE_LABELS[type] ?? type;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap text-gray-700" title={label}>
      <Icon size={14} className="shrink-0 text-gray-400" aria-hidden />
      <span className={labelClassName}>{label}</span>
    </span>
  );
}
