import { useState, type ComponentType } from 'react';
import { Link, useNavigate } from 'react-router';
import { Plus, RotateCw } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { useCan } from '#web/lib/session.tsx';
import { ResourceForm, type SettingsResourceConfig } from '#web/components/settings-form/index.ts';
import { useSettingsList } from '../api/use-settings-list.ts';
import { ResourceTable } from '../components/resource-table.tsx';
import { resourceConfig } from '../resources.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

/**
 * /settings/{table}: breadcrumb title, refresh, an add button (write permission only) and the
 * table; a row opens /settings/{table}/{id}.
 */
function ResourceListPage({ config: c }: { config: SettingsResourceConfig }) {
  const list = useSettingsList(c);
  const canWrite = useCan(c.resource, 'write');
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle={c.title}>
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          {c.section ? (
            <Link to={c.section.to} className="text-gray-600 hover:text-gray-900 hover:underline">
              {c.section.label}
            </Link>
          ) : (
            <span className="text-gray-500">Settings</span>
          )}
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">{c.title}</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Refresh"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          <RotateCw size={15} className={list.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
        {canWrite && (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <Plus size={14} aria-hidden /> Add {c.name}
          </Button>
        )}
      </PageTitle>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <ResourceTable
          rows={list.data ?? []}
          isLoading={list.isFetching}
          hiddenColumns={c.hiddenColumns}
          onRowClick={(r) => void navigate(`${c.basePath}/${r.id}`)}
        />
      )}
      <Modal open={adding} onOpenChange={setAdding} title={`Add ${c.name}`} size="large" dismissOnOutsideClick={false}>
        {adding && <ResourceForm config={c} row={null} canWrite={canWrite} onSaved={() => setAdding(false)} />}
      </Modal>
    </div>
  );
}

const pages = new Map<string, ComponentType>();

/** The list page of one table, as a route component (one per table, made once). */
export function listPageFor(table: string): ComponentType {
  let page = pages.get(table);
  if (!page) {
    const config = resourceConfig(table);
    page = function SettingsList() {
      return <ResourceListPage config={config} />;
    };
    pages.set(table, page);
  }
  return page;
}
