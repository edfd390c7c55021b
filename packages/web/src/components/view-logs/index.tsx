import { ScrollText } from 'lucide-react';
import { FeatureGuard } from '../auth/index.ts';
import { RouteLink } from '../ui/route-link.tsx';

/**
 * 'View Logs' of a component (seed 001 "/logs", seed 002 section 2.7): a link to
 * /logs?topologyId={id}; hidden when the logs feature is disabled. For the topology dashboard and
 * anywhere else a component shows.
 */
export function ViewLogsLink({ componentId, className }: { componentId: string; className?: string }) {
  return (
    <FeatureGuard feature="logs">
      <RouteLink to={`/logs?topologyId=${encodeURIComponent(componentId)}`} className={className}>
        <ScrollText size={14} aria-hidden /> View Logs
      </RouteLink>
    </FeatureGuard>
  );
}
