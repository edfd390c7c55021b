import { useState } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { Modal } from '../ui/modal.tsx';
import { cn } from '#web/lib/cn.ts';
import {
  JOB_DETAILS_TABS,
  NO_DETAILS_MESSAGE,
  availableTabs,
  initialTab,
  jobErrors,
  type JobDetails,
  type JobDetailsTab,
} from './job-details.ts';

function Json({ value }: { value: unknown }) {
  return (
    <pre className="overflow-auto rounded bg-gray-50 p-3 text-xs whitespace-pre-wrap text-gray-800">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A map of type -> {added, updated, ...} as a table; anything else as JSON. */
function SummaryTable({ value, firstColumn }: { value: unknown; firstColumn: string }) {
  if (!isRecord(value)) return <Json value={value} />;
  const entries = Object.entries(value);
  // flat key -> scalar: two columns
  if (entries.every(([, v]) => !isRecord(v) && !Array.isArray(v))) {
    return (
      <table className="w-full text-sm">
        <tbody>
          {entries.map(([k, v]) => (
            <tr key={k} className="border-b border-gray-100 last:border-0">
              <th scope="row" className="py-1.5 pr-4 text-left font-medium text-gray-600">
                {k}
              </th>
              <td className="py-1.5 text-gray-900">{String(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (!entries.every(([, v]) => isRecord(v))) return <Json value={value} />;
  const columns = [...new Set(entries.flatMap(([, v]) => Object.keys(v as object)))];
  return (
    <table className="w-full text-sm">
      <thead>
        <tr className="border-b border-gray-200 text-xs text-gray-500 uppercase">
          <th className="py-1.5 pr-4 text-left font-semibold">{firstColumn}</th>
          {columns.map((c) => (
            <th key={c} className="py-1.5 pr-4 text-right font-semibold">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k} className="border-b border-gray-100 last:border-0">
            <th scope="row" className="py-1.5 pr-4 text-left font-medium text-gray-800">
              {k}
            </th>
            {columns.map((c) => {
              const cell = (v as Record<string, unknown>)[c];
              return (
                <td key={c} className="py-1.5 pr-4 text-right text-gray-700 tabular-nums">
                  {cell === undefined ? '' : typeof cell === 'object' ? JSON.stringify(cell) : String(cell)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ErrorsList({ details }: { details: JobDetails }) {
  const errors = jobErrors(details);
  if (!errors.length) return <p className="text-sm text-gray-500">{NO_DETAILS_MESSAGE}</p>;
  return (
    <ul className="space-y-2" aria-label="Errors">
      {errors.map((e, i) => (
        <li key={i} className="rounded border border-red-100 bg-red-50 p-2.5 text-sm">
          {e.name && <div className="mb-0.5 font-medium break-all text-red-900">{e.name}</div>}
          <div className="break-words whitespace-pre-wrap text-red-800">{e.message}</div>
        </li>
      ))}
    </ul>
  );
}

export interface JobDetailsModalProps {
  /** The run whose details are shown; undefined closes the modal. */
  details: JobDetails | null | undefined;
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A job run's details: tabs Errors, Scrape Summary and Reconcile Summary, only those with content.
 * Opens on the first of them; callers should not open it when there is nothing (initialTab()).
 */
export function JobDetailsModal({ details, title, open, onOpenChange }: JobDetailsModalProps) {
  const tabs = availableTabs(details);
  const [tab, setTab] = useState<JobDetailsTab | undefined>(() => initialTab(details));
  // A different run: start again on its first tab.
  const [shownFor, setShownFor] = useState(details);
  if (shownFor !== details) {
    setShownFor(details);
    setTab(initialTab(details));
  }
  return (
    <Modal open={open && tabs.length > 0} onOpenChange={onOpenChange} title={title} size="large">
      {details && tab && (
        <Tabs.Root value={tab} onValueChange={(v) => setTab(v as JobDetailsTab)}>
          <Tabs.List className="mb-3 flex gap-1 border-b border-gray-200" aria-label="Job details">
            {JOB_DETAILS_TABS.filter((t) => tabs.includes(t.id)).map((t) => (
              <Tabs.Trigger
                key={t.id}
                value={t.id}
                className={cn(
                  '-mb-px border-b-2 px-3 py-1.5 text-sm font-medium',
                  tab === t.id
                    ? 'border-blue-600 text-blue-700'
                    : 'border-transparent text-gray-500 hover:text-gray-800',
                )}
              >
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="errors">
            <ErrorsList details={details} />
          </Tabs.Content>
          <Tabs.Content value="scrape_summary">
            <SummaryTable value={details.scrape_summary} firstColumn="Type" />
          </Tabs.Content>
          <Tabs.Content value="summary">
            <SummaryTable value={details.summary} firstColumn="Item" />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Modal>
  );
}
