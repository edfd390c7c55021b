import { type ComponentType, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import * as Tabs from '@radix-ui/react-tabs';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useCan } from '#web/lib/session.tsx';
import { cn } from '#web/lib/cn.ts';
import { ResourceJobHistory } from '#web/components/job-history/index.ts';
import {
  NO_RESOURCES_MESSAGE,
  ResourceForm,
  rowName,
  type DetailTab,
  type SettingsResourceConfig,
  type SettingsRow,
} from '#web/components/settings-form/index.ts';
import { useSettingsItem } from '../api/use-settings-item.ts';
import { ResourceIcon } from '../components/resource-icon.tsx';
import { resourceConfig } from '../resources.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

const TAB_LABELS: Record<DetailTab, string> = { spec: 'Spec', manageTeam: 'Members', jobHistory: 'Job History' };

interface ResourceDetailPageProps {
  config: SettingsResourceConfig;
  /**
   * Content of the teams' Members tab (manageTeam). The team members screen belongs to the teams
   * feature; app/ passes it in. Without it the tab is not shown.
   */
  renderMembers?: (teamId: string) => ReactNode;
  /** Actions beside the tabs (a scraper's Run now, from the catalog feature; app/ passes it in). */
  renderActions?: (row: SettingsRow) => ReactNode;
}

/**
 * /settings/{table}/{id}: breadcrumb, loading, error, the edit form or 'No resources found'.
 * Sub-navigation per kind (Spec, Members for teams, Job History) in the `tab` query parameter.
 * After an update or a delete it returns to the list.
 */
function ResourceDetailPage({ config: c, renderMembers, renderActions }: ResourceDetailPageProps) {
  const { id = '' } = useParams();
  const item = useSettingsItem(c, id);
  const canWrite = useCan(c.resource, 'write');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tabs = c.tabs.filter((t) => t !== 'manageTeam' || !!renderMembers);
  const tab = (tabs.find((t) => t === params.get('tab')) ?? 'spec') as DetailTab;
  const row = item.data;
  const back = () => void navigate(c.basePath);

  let body: ReactNode;
  if (item.isPending) {
    body = (
      <div className="flex items-center gap-2 p-6 text-sm text-gray-500" role="status">
        <Spinner /> Loading…
      </div>
    );
  } else if (item.error) {
    body = <ErrorAlert error={item.error} />;
  } else if (!row) {
    body = <p className="p-6 text-center text-sm text-gray-500">{NO_RESOURCES_MESSAGE}</p>;
  } else {
    body = (
      <Tabs.Root
        value={tab}
        onValueChange={(t) =>
          setParams((p) => (t === 'spec' ? (p.delete('tab'), p) : (p.set('tab', t), p)), { replace: true })
        }
        className="flex min-h-0 flex-1 flex-col"
      >
        <Tabs.List className="mb-4 flex items-end gap-1 border-b border-gray-200" aria-label={`${c.name} sections`}>
          {tabs.map((t) => (
            <Tabs.Trigger
              key={t}
              value={t}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
                tab === t ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-500 hover:text-gray-800',
              )}
            >
              {TAB_LABELS[t]}
            </Tabs.Trigger>
          ))}
          {renderActions && <span className="ml-auto pb-1.5">{renderActions(row)}</span>}
        </Tabs.List>
        <Tabs.Content value="spec" className="max-w-5xl">
          <ResourceForm
            key={row.id + String(row.updated_at)}
            config={c}
            row={row}
            canWrite={canWrite}
            onSaved={back}
            onDeleted={back}
          />
        </Tabs.Content>
        {renderMembers && <Tabs.Content value="manageTeam">{renderMembers(row.id)}</Tabs.Content>}
        <Tabs.Content value="jobHistory" className="flex min-h-0 flex-1 flex-col">
          <ResourceJobHistory resourceId={row.id} />
        </Tabs.Content>
      </Tabs.Root>
    );
  }

  return (
    <div className="flex h-full min-h-0 flex-col p-4">
      <PageTitle documentTitle={row ? `${rowName(row)} · ${c.title}` : c.title}>
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          {c.section ? (
            <Link to={c.section.to} className="text-gray-600 hover:text-gray-900 hover:underline">
              {c.section.label}
            </Link>
          ) : (
            <span className="text-gray-500">Settings</span>
          )}
          <span className="text-gray-400">/</span>
          <Link to={c.basePath} className="text-gray-600 hover:text-gray-900 hover:underline">
            {c.title}
          </Link>
          {row && (
            <>
              <span className="text-gray-400">/</span>
              <span className="inline-flex items-center gap-1.5 font-semibold text-gray-900">
                <ResourceIcon name={row.icon} />
                {rowName(row)}
              </span>
            </>
          )}
        </nav>
      </PageTitle>
      {body}
    </div>
  );
}

const pages = new Map<string, ComponentType>();

/** The detail page of one table, as a route component (one per table, made once). */
export function detailPageFor(
  table: string,
  renderMembers?: (teamId: string) => ReactNode,
  renderActions?: (row: SettingsRow) => ReactNode,
): ComponentType {
  let page = pages.get(table);
  if (!page) {
    const config = resourceConfig(table);
    page = function SettingsDetail() {
      return <ResourceDetailPage config={config} renderMembers={renderMembers} renderActions={renderActions} />;
    };
    pages.set(table, page);
  }
  return page;
}
