import { useId, useMemo, useState } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { parse } from 'yaml';
import { AlertTriangle, ArrowLeft, Copy } from 'lucide-react';
import { CodeEditor } from '#web/components/code-editor/index.ts';
import { FormField, inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { copyToClipboard } from '#web/lib/clipboard.ts';
import { cn } from '#web/lib/cn.ts';
import { useChartInfo } from '../api/use-chart-info.ts';
import { fluxManifests, helmCommand } from '../gitops/manifests.ts';
import { GITOPS_DEFAULT_INTERVAL, GITOPS_DEFAULT_NAMESPACE, type GitOpsOption } from '../gitops/options.ts';

type InstallTab = 'flux' | 'helm';

/** The values document as an object; a YAML error is reported instead of guessed around. */
function parseValues(text: string): { values: Record<string, unknown> } | { error: string } {
  try {
    const doc = parse(text) as unknown;
    if (doc === null || doc === undefined) return { values: {} };
    if (typeof doc !== 'object' || Array.isArray(doc)) return { error: 'Values must be a YAML mapping (key: value)' };
    return { values: doc as Record<string, unknown> };
  } catch (err) {
    return { error: `Values are not valid YAML: ${(err as Error).message.split('\n')[0]}` };
  }
}

function Generated({ text, label }: { text: string; label: string }) {
  return (
    <div className="relative">
      <pre
        aria-label={label}
        className="max-h-80 overflow-auto rounded-md border border-gray-200 bg-gray-900 p-3 font-mono text-xs leading-relaxed text-gray-100"
      >
        {text}
      </pre>
      <Button
        size="sm"
        className="absolute top-2 right-2"
        onClick={() => void copyToClipboard(text)}
        aria-label={`Copy ${label}`}
      >
        <Copy size={13} aria-hidden /> Copy
      </Button>
    </div>
  );
}

/**
 * A GitOps option (seed 002 section 2.9): namespace, a values editor validated against the
 * chart's schema, and two tabs, 'Flux' (generated manifests) and 'Helm CLI' (generated command).
 * Nothing is written to the database: the bundle is installed by Flux or Helm in the cluster.
 */
export function GitOpsForm({
  option,
  onBack,
  onClose,
}: {
  option: GitOpsOption;
  onBack: () => void;
  onClose: () => void;
}) {
  const ids = { namespace: useId(), values: useId() };
  const [namespace, setNamespace] = useState(GITOPS_DEFAULT_NAMESPACE);
  const [valuesText, setValuesText] = useState(`# Values for the ${option.chart} chart\n`);
  const [tab, setTab] = useState<InstallTab>('flux');
  const chart = useChartInfo(option);
  const parsed = useMemo(() => parseValues(valuesText), [valuesText]);
  const ns = namespace.trim();
  const nsError = ns
    ? /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(ns)
      ? undefined
      : 'A namespace is lower-case letters, digits and dashes'
    : 'This field is required';

  const spec =
    'values' in parsed && !nsError
      ? {
          chart: option.chart,
          version: chart.data?.version,
          namespace: ns,
          interval: GITOPS_DEFAULT_INTERVAL,
          values: parsed.values,
        }
      : undefined;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="min-h-0 flex-1 space-y-4 overflow-auto">
        <div className="flex items-center gap-2">
          <option.icon size={18} aria-hidden className="text-gray-500" />
          <h3 className="text-sm font-semibold text-gray-900">{option.name}</h3>
          <span className="text-xs text-gray-500">
            chart {option.chart}
            {chart.data?.version && ` ${chart.data.version}`}
          </span>
          {chart.isPending && <Spinner size={13} />}
        </div>
        <FormField label="Namespace" htmlFor={ids.namespace} required error={nsError}>
          <input
            id={ids.namespace}
            value={namespace}
            onChange={(e) => setNamespace(e.target.value)}
            className={cn(inputClass(!!nsError), 'max-w-sm')}
            aria-invalid={!!nsError || undefined}
          />
        </FormField>
        <FormField
          label="Values"
          htmlFor={ids.values}
          error={'error' in parsed ? parsed.error : undefined}
          hint={
            chart.data?.schema
              ? 'Checked against the chart’s values schema (Ctrl-Space completes keys).'
              : chart.data?.unavailable
                ? `The chart’s values schema could not be loaded (${chart.data.unavailable}): values are not validated.`
                : undefined
          }
        >
          <CodeEditor
            id={ids.values}
            aria-label="Values"
            language="yaml"
            value={valuesText}
            onChange={setValuesText}
            schema={chart.data?.schema}
            height="12rem"
            invalid={'error' in parsed}
          />
        </FormField>
        <p
          className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          role="note"
        >
          <AlertTriangle size={15} aria-hidden className="mt-0.5 shrink-0" />
          The chart must be installed in Flux: commit the manifests to a repository Flux reconciles (the Flux source and
          helm controllers must run in the cluster), or install it once with the Helm CLI.
        </p>
        <Tabs.Root value={tab} onValueChange={(v) => setTab(v as InstallTab)}>
          <Tabs.List aria-label="Installation" className="mb-2 flex gap-1 border-b border-gray-200">
            {(
              [
                ['flux', 'Flux'],
                ['helm', 'Helm CLI'],
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
          <Tabs.Content value="flux">
            {spec ? (
              <Generated label="Flux manifests" text={fluxManifests(spec)} />
            ) : (
              <p className="text-sm text-gray-500">Fix the form to see the manifests.</p>
            )}
          </Tabs.Content>
          <Tabs.Content value="helm">
            {spec ? (
              <Generated label="Helm command" text={helmCommand(spec)} />
            ) : (
              <p className="text-sm text-gray-500">Fix the form to see the command.</p>
            )}
          </Tabs.Content>
        </Tabs.Root>
      </div>
      <div className="mt-4 flex items-center justify-between border-t border-gray-200 pt-3">
        <Button onClick={onBack}>
          <ArrowLeft size={14} aria-hidden /> Back
        </Button>
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
