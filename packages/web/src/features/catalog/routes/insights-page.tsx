import { Link } from 'react-router';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { CatalogLayout } from '../components/catalog-tabs.tsx';
import { InsightsView } from '../components/insights-view.tsx';

/** /catalog/insights: every config's insights (seed 002 sections 2.1 and 2.5). */
export function InsightsPage() {
  return (
    <CatalogLayout>
      <PageTitle documentTitle="Insights · Catalog">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <Link to="/catalog" className="text-gray-600 hover:text-gray-900 hover:underline">
            Catalog
          </Link>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Insights</span>
        </nav>
      </PageTitle>
      <InsightsView />
    </CatalogLayout>
  );
}
