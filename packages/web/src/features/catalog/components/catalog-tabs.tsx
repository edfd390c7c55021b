import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { cn } from '#web/lib/cn.ts';
import { useCan, useSession } from '#web/lib/session.tsx';

/** The catalog's tabs, in the seed's order: Catalog, Changes, Insights, Scrapers. */
const TABS = [
  { label: 'Catalog', to: '/catalog', end: true },
  { label: 'Changes', to: '/catalog/changes', end: true },
  { label: 'Insights', to: '/catalog/insights', end: true },
  { label: 'Scrapers', to: '/catalog/scrapers', end: false },
] as const;

/**
 * The catalog pages' frame: the tab bar over the page. Scrapers shows only to those who may read
 * config_scrapers with the config scraper feature on.
 */
export function CatalogLayout({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <CatalogTabs actions={actions} />
      {children}
    </div>
  );
}

/**
 * The scrapers' pages are the settings resource pages (app/ composes them): they keep their own
 * padding, so the tab bar sits above them on its own.
 */
export function ScrapersFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="px-4 pt-4">
        <CatalogTabs />
      </div>
      <div className="min-h-0 flex-1">{children}</div>
    </div>
  );
}

function CatalogTabs({ actions }: { actions?: ReactNode }) {
  const canScrapers = useCan('config_scrapers', 'read');
  const { isFeatureEnabled } = useSession();
  const tabs = TABS.filter(
    (t) => t.label !== 'Scrapers' || (canScrapers && isFeatureEnabled('settings.config_scraper')),
  );
  return (
    <div className="flex flex-wrap items-end justify-between gap-2 border-b border-gray-200">
      <nav aria-label="Catalog sections" className="flex gap-1">
        {tabs.map((t) => (
          <NavLink
            key={t.to}
            to={t.to}
            end={t.end}
            className={({ isActive }) =>
              cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
                isActive ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-500 hover:text-gray-800',
              )
            }
          >
            {t.label}
          </NavLink>
        ))}
      </nav>
      {actions && <div className="flex items-center gap-2 pb-1.5">{actions}</div>}
    </div>
  );
}
