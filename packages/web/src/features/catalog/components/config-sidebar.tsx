import { Link } from 'react-router';
import { AlertTriangle } from 'lucide-react';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import type { ConfigDetail } from '../api/types.ts';
import { LAST_SCRAPED_WARNING_MS, MESSAGES } from '../lib/constants.ts';
import { labelsByPrefix } from '../lib/format.ts';
import { Cost, HealthStatus, TagChips } from './badges.tsx';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-gray-500 uppercase">{label}</dt>
      <dd className="text-sm text-gray-800">{children}</dd>
    </div>
  );
}

/** Whether a last scrape is older than an hour (the sidebar's warning). */
function scrapedLongAgo(lastScraped: string | null | undefined, now = Date.now()): boolean {
  return !!lastScraped && now - new Date(lastScraped).getTime() > LAST_SCRAPED_WARNING_MS;
}

/**
 * The config's right sidebar (seed 002 section 2.3): name, tags and deleted status; health and
 * status (Last status when deleted); created, linking to its scraper; updated; a warning when
 * the last scrape is over an hour old; type linking to /catalog?type=; class, cost and labels
 * grouped by prefix.
 */
export function ConfigSidebar({ config: c }: { config: ConfigDetail }) {
  const scraper = c.config_scrapers ?? (c.scraper_id ? { id: c.scraper_id, name: 'scraper' } : null);
  return (
    <dl className="flex flex-col gap-3" aria-label="Config details">
      <Field label="Name">{c.name}</Field>
      {c.tags && Object.keys(c.tags).length > 0 && (
        <Field label="Tags">
          <TagChips tags={c.tags} max={20} />
        </Field>
      )}
      {c.deleted_at && (
        <Field label="Deleted">
          <span className="text-red-700" title={formatDateTime(c.deleted_at)}>
            <RelativeTime at={c.deleted_at} />
            {c.delete_reason ? ` (${c.delete_reason})` : ''}
          </span>
        </Field>
      )}
      <Field label={c.deleted_at ? 'Last status' : 'Health'}>
        <HealthStatus health={c.health} status={c.status} />
      </Field>
      {c.description && <Field label="Description">{c.description}</Field>}
      <Field label="Created">
        <RelativeTime at={c.created_at} />
        {scraper && (
          <>
            {' by '}
            <Link to={`/catalog/scrapers/${scraper.id}`} className="text-blue-700 hover:underline">
              {scraper.name}
            </Link>
          </>
        )}
      </Field>
      <Field label="Updated">
        <RelativeTime at={c.updated_at} fallback="—" />
      </Field>
      {c.last_scraped_time && (
        <Field label="Last scraped">
          <RelativeTime at={c.last_scraped_time} />
          {scrapedLongAgo(c.last_scraped_time) && (
            <span className="mt-1 flex items-center gap-1 text-xs text-orange-700" role="note">
              <AlertTriangle size={13} aria-hidden /> {MESSAGES.lastScraped}
            </span>
          )}
        </Field>
      )}
      <Field label="Type">
        <Link to={`/catalog?type=${encodeURIComponent(c.type)}`} className="text-blue-700 hover:underline">
          {c.type}
        </Link>
      </Field>
      <Field label="Class">{c.config_class}</Field>
      {c.cost_total_30d ? (
        <Field label="Cost (30 days)">
          <Cost cost1d={c.cost_total_1d} cost30d={c.cost_total_30d} />
        </Field>
      ) : null}
      {c.agent && c.agent.id !== '00000000-0000-0000-0000-000000000000' && <Field label="Agent">{c.agent.name}</Field>}
      {c.labels && Object.keys(c.labels).length > 0 && (
        <Field label="Labels">
          <span className="flex flex-col gap-2">
            {labelsByPrefix(c.labels).map(([prefix, entries]) => (
              <span key={prefix || '-'} className="flex flex-col gap-0.5">
                {prefix && <span className="text-xs text-gray-500">{prefix}</span>}
                <span className="flex flex-wrap gap-1">
                  {entries.map(([k, v]) => (
                    <span key={k} className="rounded bg-gray-100 px-1.5 text-xs text-gray-700">
                      {k}: <span className="font-medium">{v}</span>
                    </span>
                  ))}
                </span>
              </span>
            ))}
          </span>
        </Field>
      )}
    </dl>
  );
}
