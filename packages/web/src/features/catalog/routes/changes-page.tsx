import { Link } from 'react-router';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { CatalogLayout } from '../components/catalog-tabs.tsx';
import { ChangesView } from '../components/changes-view.tsx';

/** /catalog/changes: every config's changes; breadcrumb Catalog > Changes (seed 002 section 2.1). */
export function ChangesPage() {
  return (
    <CatalogLayout>
      <PageTitle documentTitle="Changes · Catalog">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <Link to="/catalog" className="text-gray-600 hover:text-gray-900 hover:underline">
            Catalog
          </Link>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Changes</span>
        </nav>
      </PageTitle>
      <ChangesView />
    </CatalogLayout>
  );
}
