/**
 * The agent form (seed 000 sections 3, 5, 9): name (required; read-only once created),
 * description, properties (a label map), kubernetes {enabled, interval} with the scrape interval
 * options (default 30m) and pushTelemetry {enabled, topologyName}; both default disabled.
 */
import { useId } from 'react';
import { FormProvider, useFieldArray, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { Plus, X } from 'lucide-react';
import {
  AGENT_SCRAPE_INTERVALS,
  DEFAULT_AGENT_SCRAPE_INTERVAL,
  type AgentFormInput,
  type AgentSummary,
} from '@watchdeck/core';
import { FormField, SelectField, TextAreaField, TextField, inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';

export interface AgentFormValues {
  name: string;
  description: string;
  properties: { key: string; value: string }[];
  kubernetes: { enabled: boolean; interval: string };
  pushTelemetry: { enabled: boolean; topologyName: string };
}

export const EMPTY_AGENT: AgentFormValues = {
  name: '',
  description: '',
  properties: [],
  kubernetes: { enabled: false, interval: DEFAULT_AGENT_SCRAPE_INTERVAL },
  pushTelemetry: { enabled: false, topologyName: '' },
};

export function valuesOf(agent: AgentSummary): AgentFormValues {
  return {
    name: agent.name,
    description: agent.description ?? '',
    properties: Object.entries(agent.properties ?? {}).map(([key, value]) => ({ key, value: String(value) })),
    kubernetes: {
      enabled: agent.spec?.kubernetes?.enabled ?? false,
      interval: agent.spec?.kubernetes?.interval ?? DEFAULT_AGENT_SCRAPE_INTERVAL,
    },
    pushTelemetry: {
      enabled: agent.spec?.pushTelemetry?.enabled ?? false,
      topologyName: agent.spec?.pushTelemetry?.topologyName ?? '',
    },
  };
}

/** The form's values as the server takes them (empty property rows dropped). */
export function toInput(v: AgentFormValues): Required<Omit<AgentFormInput, 'description'>> & { description?: string } {
  const properties = Object.fromEntries(
    v.properties.filter((p) => p.key.trim() !== '').map((p) => [p.key.trim(), p.value]),
  );
  const topologyName = v.pushTelemetry.topologyName.trim();
  return {
    name: v.name.trim(),
    ...(v.description.trim() ? { description: v.description.trim() } : {}),
    properties,
    kubernetes: {
      enabled: v.kubernetes.enabled,
      interval: v.kubernetes.interval as (typeof AGENT_SCRAPE_INTERVALS)[number],
    },
    pushTelemetry: { enabled: v.pushTelemetry.enabled, ...(topologyName ? { topologyName } : {}) },
  };
}

export function useAgentForm(defaults: AgentFormValues) {
  return useForm<AgentFormValues>({ mode: 'onTouched', defaultValues: defaults });
}

const INTERVAL_OPTIONS = AGENT_SCRAPE_INTERVALS.map((i) => ({ value: i, label: i }));

function Toggle({
  form,
  name,
  label,
}: {
  form: UseFormReturn<AgentFormValues>;
  name: `${'kubernetes' | 'pushTelemetry'}.enabled`;
  label: string;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="inline-flex items-center gap-2 text-sm text-gray-800">
      <input id={id} type="checkbox" className="h-4 w-4 rounded border-gray-300" {...form.register(name)} />
      {label}
    </label>
  );
}

export function AgentForm({
  id,
  form,
  mode,
  onSubmit,
}: {
  id: string;
  form: UseFormReturn<AgentFormValues>;
  mode: 'create' | 'edit';
  onSubmit: (values: AgentFormValues) => void | Promise<void>;
}) {
  const properties = useFieldArray({ control: form.control, name: 'properties' });
  const kubernetes = useWatch({ control: form.control, name: 'kubernetes.enabled' });
  const telemetry = useWatch({ control: form.control, name: 'pushTelemetry.enabled' });
  return (
    <FormProvider {...form}>
      <form id={id} noValidate className="space-y-4" onSubmit={(e) => void form.handleSubmit(onSubmit)(e)}>
        <TextField<AgentFormValues>
          name="name"
          label="Name"
          required
          readOnly={mode === 'edit'}
          autoComplete="off"
          hint={mode === 'edit' ? "An agent's name cannot be changed." : undefined}
        />
        <TextAreaField<AgentFormValues> name="description" label="Description" rows={2} />
        <FormField label="Properties" htmlFor={`${id}-properties`}>
          <div id={`${id}-properties`} className="space-y-2">
            {properties.fields.map((f, i) => (
              <div key={f.id} className="flex gap-2">
                <input
                  aria-label={`Property ${i + 1} name`}
                  placeholder="name"
                  className={inputClass()}
                  {...form.register(`properties.${i}.key`)}
                />
                <input
                  aria-label={`Property ${i + 1} value`}
                  placeholder="value"
                  className={inputClass()}
                  {...form.register(`properties.${i}.value`)}
                />
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove property ${i + 1}`}
                  onClick={() => properties.remove(i)}
                >
                  <X size={14} aria-hidden />
                </Button>
              </div>
            ))}
            <Button size="sm" onClick={() => properties.append({ key: '', value: '' })}>
              <Plus size={14} aria-hidden /> Add property
            </Button>
          </div>
        </FormField>
        <fieldset className="space-y-2 rounded-md border border-gray-200 p-3">
          <legend className="px-1 text-sm font-medium text-gray-700">Kubernetes</legend>
          <Toggle form={form} name="kubernetes.enabled" label="Scrape the cluster's Kubernetes resources" />
          {kubernetes && (
            <SelectField<AgentFormValues>
              name="kubernetes.interval"
              label="Scrape interval"
              options={INTERVAL_OPTIONS}
            />
          )}
        </fieldset>
        <fieldset className="space-y-2 rounded-md border border-gray-200 p-3">
          <legend className="px-1 text-sm font-medium text-gray-700">Push telemetry</legend>
          <Toggle form={form} name="pushTelemetry.enabled" label="Push telemetry to this console" />
          {telemetry && <TextField<AgentFormValues> name="pushTelemetry.topologyName" label="Topology name" />}
        </fieldset>
      </form>
    </FormProvider>
  );
}
