import type { ComponentProperty } from '@watchdeck/core';
import { formatRelative } from '#web/lib/format.ts';
import { USAGE_RED_ABOVE } from './constants.ts';

/**
 * A cost (seed 002 section 9): abbreviated with k above 1000; otherwise 2 decimals if 10 or less,
 * none above.
 */
export function formatCurrency(value: number): string {
  const sign = value < 0 ? '-' : '';
  const v = Math.abs(value);
  if (v > 1000) return `${sign}$${(v / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${sign}$${v <= 10 ? v.toFixed(2) : Math.round(v).toString()}`;
}

/** Uptime is shown to 2 decimals (seed 002 section 9). */
export function formatUptime(value: number): string {
  return `${value.toFixed(2)}%`;
}

const BYTES = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

function formatBytes(value: number): string {
  let v = value;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < BYTES.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${i === 0 ? v : v.toFixed(1).replace(/\.0$/, '')} ${BYTES[i]}`;
}

function formatNumber(value: number, unit?: string): string {
  const u = unit?.toLowerCase();
  if (u === 'bytes' || u === 'byte' || u === 'b') return formatBytes(value);
  if (u === 'millicores' || u === 'millicore')
    return value >= 1000 ? `${(value / 1000).toFixed(2)} cores` : `${value}m`;
  if (u === '%' || u === 'percent') return `${value.toFixed(2)}%`;
  const n = Number.isInteger(value) ? value.toString() : value.toFixed(2);
  return unit ? `${n} ${unit}` : n;
}

const isUptime = (p: ComponentProperty) => /uptime/i.test(p.name);

/** Whether a property is shown at all (type hidden is not). */
export const isVisibleProperty = (p: ComponentProperty) => p.type !== 'hidden';

/** The text of a property's value as the cards and the sidebar show it. */
export function formatPropertyValue(p: ComponentProperty): string {
  if (p.type === 'age') return formatRelative(p.text ?? (p.value !== undefined ? new Date(p.value) : undefined));
  if (typeof p.value === 'number') {
    if (p.type === 'currency') return formatCurrency(p.value);
    if (isUptime(p)) return formatUptime(p.value);
    const text = formatNumber(p.value, p.unit);
    return p.max !== undefined ? `${text} / ${formatNumber(p.max, p.unit)}` : text;
  }
  return p.text ?? '';
}

/** The share of its max a usage property is at (0..1), or undefined without a max. */
export function usageOf(p: ComponentProperty): number | undefined {
  if (typeof p.value !== 'number' || !p.max) return undefined;
  return p.value / p.max;
}

export const isUsageHigh = (p: ComponentProperty) => (usageOf(p) ?? 0) > USAGE_RED_ABOVE;
