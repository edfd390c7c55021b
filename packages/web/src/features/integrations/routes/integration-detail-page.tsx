import type { ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import * as Tabs from '@radix-ui/react-tabs';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useIntegrationResource } from '../api/use-integration-resource.ts';
import { useRefreshIntegrations } from '../api/use-refresh-integrations.ts';
import {
  INTEGRATION_TABLES,
  INTEGRATION_TYPE_LABELS,
  isIntegrationType,
  type RenderIntegrationForm,
  type RenderJobHistory,
} from '../types.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

const UNKNOWN_TYPE_MESSAGE = 'Unknown type';
const NO_RESOURCES_MESSAGE = 'No resources found';

type Tab = 'spec' | 'jobHistory';

/**
 * /settings/integrations/{type}/{id} (seed 002 section 2.9): {type} is logging_backends,
 * topologies or scrapers; anything else is 'Unknown type'. Tabs Spec (the edit form) and Job
 * History; after an update or a delete it returns to /settings/integrations.
 */
export function IntegrationDetailPage({
  renderForm,
  renderJobHistory,
}: {
  renderForm: RenderIntegrationForm;
  renderJobHistory: RenderJobHistory;
}) {
  const { type, id = '' } = useParams();
  const known = isIntegrationType(type);
  const table = known ? INTEGRATION_TABLES[type] : undefined;
  const item = useIntegrationResource(table, id);
  const navigate = useNavigate();
  const refresh = useRefreshIntegrations();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'jobHistory' ? 'jobHistory' : 'spec';
  const done = () => {
    refresh();
    void navigate('/settings/integrations');
  };

  let body: ReactNode;
  if (!known || !table) {
    body = (
      <p role="alert" className="p-6 text-center text-sm text-gray-600">
        {UNKNOWN_TYPE_MESSAGE}
      </p>
    );
  } else if (item.isPending) {
    body = (
      <div className="flex items-center gap-2 p-6 text-sm text-gray-500" role="status">
        <Spinner /> Loading…
      </div>
    );
  } else if (item.error) {
    body = <ErrorAlert error={item.error} />;
  } else if (!item.data) {
    body = <p className="p-6 text-center text-sm text-gray-500">{NO_RESOURCES_MESSAGE}</p>;
  } else {
    const row = item.data;
    body = (
      <Tabs.Root
        value={tab}
        onValueChange={(v) =>
          setParams((p) => {
            const next = new URLSearchParams(p);
            if (v === 'spec') next.delete('tab');
            else next.set('tab', v);
            return next;
          })
        }
        className="flex min-h-0 flex-1 flex-col"
      >
        <Tabs.List aria-label="Integration" className="mb-3 flex gap-1 border-b border-gray-200">
          {(
            [
              ['spec', 'Spec'],
              ['jobHistory', 'Job History'],
            ] as const
          ).map(([value, label]) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className="-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-gray-600 hover:text-gray-900 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content
          value="spec"
          className="min-h-0 flex-1 overflow-auto rounded-lg border border-gray-200 bg-white p-4"
        >
          {renderForm({ table, row, onSaved: done, onDeleted: done })}
        </Tabs.Content>
        <Tabs.Content value="jobHistory" className="flex min-h-0 flex-1 flex-col">
          {renderJobHistory(row.id)}
        </Tabs.Content>
      </Tabs.Root>
    );
  }

  const name = item.data?.name ?? id;
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle={item.data?.name ? `${item.data.name} · Integrations` : 'Integrations'}>
        <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1.5 text-sm">
          <span className="text-gray-500">Settings</span>
          <span className="text-gray-400">/</span>
          <Link to="/settings/integrations" className="text-gray-600 hover:text-gray-900">
            Integrations
          </Link>
          {known && (
            <>
              <span className="text-gray-400">/</span>
              <span className="text-gray-500">{INTEGRATION_TYPE_LABELS[type]}</span>
              <span className="text-gray-400">/</span>
              <span className="truncate font-semibold text-gray-900">{name}</span>
            </>
          )}
        </nav>
      </PageTitle>
      {body}
    </div>
  );
}
