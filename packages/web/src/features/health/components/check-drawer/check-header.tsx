import { Bot } from 'lucide-react';
import type { CheckSummary } from '#web/features/health/api/types.ts';
import { agentName } from '#web/features/health/lib/grouping.ts';
import { CheckIcon, HealthBadge } from '../check-icon.tsx';
import { LabelChips } from './label-chips.tsx';

/** Header: icon, name, namespace, endpoint, agent badge; the label chips under it. */
export function CheckHeader({ check, titleId }: { check: CheckSummary; titleId: string }) {
  const agent = agentName(check);
  return (
    <div className="min-w-0 space-y-2">
      <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
        <CheckIcon icon={check.icon} type={check.type} size={22} />
        <h2 id={titleId} className="truncate text-lg font-semibold text-gray-900">
          {check.name}
        </h2>
        <HealthBadge status={check.status} />
        {check.namespace && (
          <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-600" title="Namespace">
            {check.namespace}
          </span>
        )}
        <span
          className="inline-flex items-center gap-1 rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-700"
          title="Agent"
          data-testid="agent-badge"
        >
          <Bot size={12} aria-hidden /> {agent}
        </span>
      </div>
      {check.endpoint && (
        <p className="truncate font-mono text-xs text-gray-500" title={check.endpoint}>
          {check.endpoint}
        </p>
      )}
      <LabelChips labels={check.labels} />
    </div>
  );
}
