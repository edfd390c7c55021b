import { listPageFor } from '../features/settings-resources/routes/resource-list-page.tsx';
import { detailPageFor } from '../features/settings-resources/routes/resource-detail-page.tsx';
import { ScrapersFrame } from '../features/catalog/components/catalog-tabs.tsx';
import { RunScraperButton } from '../features/catalog/components/run-scraper-button.tsx';

/**
 * /catalog/scrapers and /catalog/scrapers/{id} (seed 002 section 2.1): the settings area's
 * scraper list and its Spec / Job History detail, under the catalog's tabs, with the catalog's
 * Run now beside the detail's tabs (app/ composes features).
 */
const ScraperList = listPageFor('config_scrapers');
const ScraperDetail = detailPageFor('config_scrapers', undefined, (row) => <RunScraperButton id={row.id} />);

export function CatalogScrapersRoute() {
  return (
    <ScrapersFrame>
      <ScraperList />
    </ScrapersFrame>
  );
}

export function CatalogScraperDetailRoute() {
  return (
    <ScrapersFrame>
      <ScraperDetail />
    </ScrapersFrame>
  );
}
