import { IntegrationsPage } from '../features/integrations/routes/integrations-page.tsx';
import { IntegrationDetailPage } from '../features/integrations/routes/integration-detail-page.tsx';
import type { RenderIntegrationForm, RenderJobHistory } from '../features/integrations/types.ts';
import { ResourceJobHistory } from '../components/job-history/index.ts';
import { ResourceForm, type SettingsRow } from '../components/settings-form/index.ts';
import { resourceConfig } from '../features/settings-resources/resources.ts';
import { useSession } from '../lib/session.tsx';

/**
 * The integrations screens composed with the settings resource form and Job History tab
 * (components/) and the settings area's resource kinds (app/ composes features). Topologies, scrapers and log
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
