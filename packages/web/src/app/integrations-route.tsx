import { IntegrationsPage } from '../features/integrations/routes/integrations-page.tsx';
import { IntegrationDetailPage } from '../features/integrations/routes/integration-detail-page.tsx';
import type { RenderIntegrationForm, RenderJobHistory } from '../features/integrations/types.ts';
import { ResourceForm } from '../features/settings-resources/components/resource-form.tsx';
import { ResourceJobHistory } from '../features/settings-resources/components/resource-job-history.tsx';
import { resourceConfig } from '../features/settings-resources/resources.ts';
import type { SettingsRow } from '../features/settings-resources/api/types.ts';
import { useSession } from '../lib/session.tsx';

/**
 * The integrations screens composed with the settings area's spec form and Job History tab
 * (features never import each other; app/ puts them together). Topologies, scrapers and log
 * backends are edited with the same form here as on their own settings pages.
 */
function useIntegrationForm(): RenderIntegrationForm {
  const { can } = useSession();
  return ({ table, row, onSaved, onDeleted }) => {
    const config = resourceConfig(table);
    return (
      <ResourceForm
        key={row?.id ?? `new-${table}`}
        config={config}
        row={row as SettingsRow | null}
        canWrite={can(config.resource, 'write')}
        onSaved={onSaved}
        onDeleted={onDeleted}
      />
    );
  };
}

const renderJobHistory: RenderJobHistory = (resourceId) => <ResourceJobHistory resourceId={resourceId} />;

export function IntegrationsRoute() {
  return <IntegrationsPage renderForm={useIntegrationForm()} />;
}

export function IntegrationDetailRoute() {
  return <IntegrationDetailPage renderForm={useIntegrationForm()} renderJobHistory={renderJobHistory} />;
}
