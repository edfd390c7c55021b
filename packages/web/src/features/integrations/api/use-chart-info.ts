import { useQuery } from '@tanstack/react-query';
import { parse } from 'yaml';
import type { GitOpsOption } from '../gitops/options.ts';

export interface ChartInfo {
  version?: string;
  description?: string;
  /** the chart's values schema; undefined when it could not be fetched */
  schema?: object;
  /** why the registry could not be read (the console may run without internet access) */
  unavailable?: string;
}

const TIMEOUT_MS = 8000;

async function fetchText(url: string, signal: AbortSignal): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) });
  if (!res.ok) throw new Error(`${new URL(url).host} answered ${res.status}`);
  return res.text();
}

/**
 * The chart metadata (Chart.yaml: version) and values schema of a GitOps option, fetched from the
 * public registry (seed 002 section 7.4). Never fails: without the registry the form still
 * generates manifests, unpinned and unvalidated, and says so.
 */
export function useChartInfo(option: GitOpsOption) {
  return useQuery({
    queryKey: ['integrations', 'chart', option.chart],
    staleTime: Infinity,
    retry: false,
    queryFn: async ({ signal }): Promise<ChartInfo> => {
      const [meta, schema] = await Promise.allSettled([
        fetchText(option.chartYamlUrl, signal),
        fetchText(option.schemaUrl, signal),
      ]);
      const info: ChartInfo = {};
      if (meta.status === 'fulfilled') {
        const doc = parse(meta.value) as { version?: unknown; description?: unknown } | null;
        if (typeof doc?.version === 'string') info.version = doc.version;
        if (typeof doc?.description === 'string') info.description = doc.description;
      }
      if (schema.status === 'fulfilled') {
        try {
          const parsed = JSON.parse(schema.value) as unknown;
          if (parsed && typeof parsed === 'object') info.schema = parsed;
        } catch {
          // a schema that is not JSON validates nothing
        }
      }
      if (meta.status === 'rejected' || schema.status === 'rejected') {
        const reason = meta.status === 'rejected' ? meta.reason : (schema as PromiseRejectedResult).reason;
        info.unavailable =
          reason instanceof Error && reason.name !== 'TypeError'
            ? reason.message
            : 'the chart registry is not reachable';
      }
      return info;
    },
  });
}
