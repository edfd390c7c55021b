import { NOTIFICATION_EVENTS, isUuid, renderTemplate } from '@watchdeck/core';
import type { Queryable } from '#server/db/index.ts';

/**
 * The events rules choose from (seed 002 section 3) and the bus names they arrive under: health
 * publishes check.failed / check.passed, topology component.status.<status>; the config and
 * playbook names are consumed as written, so their publishers need no change to reach rules.
 */
export const RULE_EVENTS = NOTIFICATION_EVENTS;

/** bus name -> rule event */
export const BUS_EVENTS: Record<string, string> = Object.fromEntries([
  ...RULE_EVENTS.filter((e) => !e.startsWith('component.')).map((e) => [e, e]),
  ...['healthy', 'unhealthy', 'unknown', 'warning'].map((s) => [`component.status.${s}`, `component.${s}`]),
]);

/** A recovery cancels the waiting sends of the failures it answers (waitFor). */
export const RECOVERS: Record<string, string[]> = {
  'check.passed': ['check.failed'],
  'component.healthy': ['component.unhealthy', 'component.warning'],
  'config.healthy': ['config.unhealthy', 'config.warning'],
};

export type ResourceType = 'check' | 'component' | 'config' | 'playbook_run';

/** What an event is about, as rules' filters and templates see it. */
export interface Subject {
  /** the rule event (check.failed, component.unhealthy, ...) */
  event: string;
  resourceType: ResourceType;
  resourceId: string | null;
  name: string;
  /** healthy, unhealthy, ... (the run's status for playbooks) */
  status: string;
  /** the message the change came with (a check's error, a component's status reason) */
  message: string;
  /** CEL variables and template context: event, check/canary, component, config, playbook/run */
  vars: Record<string, unknown>;
  /** the page of the resource in the console */
  link?: string;
}

const kindOf = (event: string): ResourceType =>
  event.startsWith('check.')
    ? 'check'
    : event.startsWith('component.')
      ? 'component'
      : event.startsWith('config.')
        ? 'config'
        : 'playbook_run';

const PAGES: Record<ResourceType, string> = {
  check: '/health?checkId=',
  component: '/topology/',
  config: '/catalog/',
  playbook_run: '/playbooks/runs/',
};

/** The resource's page in the console; none without WATCHDECK_PUBLIC_URL (a relative link leads nowhere). */
export const linkOf = (publicUrl: string | undefined, type: string, id: string | null) =>
  publicUrl && id && type in PAGES ? `${publicUrl}${PAGES[type as ResourceType]}${id}` : undefined;

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The kind and id of the resource an event is about, from the event alone. */
export function subjectRef(event: string, props: Record<string, unknown>): { kind: ResourceType; id: string | null } {
  const kind = kindOf(event);
  const idKey = kind === 'playbook_run' ? (props.run_id !== undefined ? 'run_id' : 'playbook_run_id') : `${kind}_id`;
  return { kind, id: isUuid(str(props[idKey])) ? str(props[idKey]) : null };
}

/** Loads the event's resource (a deleted or unknown one still yields the event's own words). */
export async function loadSubject(
  q: Queryable,
  event: string,
  props: Record<string, unknown>,
  publicUrl: string | undefined,
): Promise<Subject> {
  const { kind, id } = subjectRef(event, props);
  const vars: Record<string, unknown> = { event: { name: event, properties: props } };
  let name = str(props.name);
  let status = str(props.status) || event.split('.').pop()!;
  let message: string;

  if (kind === 'check') {
    const row = id
      ? (
          await q.query<Record<string, unknown>>(
            `SELECT c.id, c.name, c.namespace, c.type, c.status, c.severity, c.labels, c.description, c.endpoint,
                    c.icon, c.canary_id, c.last_transition_time, to_jsonb(k) - 'spec' AS canary
             FROM checks c LEFT JOIN canaries k ON k.id = c.canary_id WHERE c.id = $1`,
            [id],
          )
        ).rows[0]
      : undefined;
    const { canary, ...check } = row ?? {};
    vars.check = { ...check, ...(row ? {} : { id, name }), message: str(props.message), error: str(props.error) };
    vars.canary = canary ?? { id: str(props.canary_id) || null };
    name = str(check.name) || name;
    status = event === 'check.passed' ? 'healthy' : 'unhealthy';
    message = str(props.error) || str(props.message);
  } else if (kind === 'component') {
    const row = id
      ? (
          await q.query<Record<string, unknown>>(
            `SELECT id, name, title, type, icon, status, status_reason, labels, parent_id, path, topology_id,
                    labels->>'namespace' AS namespace
             FROM components WHERE id = $1`,
            [id],
          )
        ).rows[0]
      : undefined;
    vars.component = row ?? { id, name, status };
    name = str(row?.name) || name;
    status = event.split('.')[1];
    message = str(props.status_reason) || str(row?.status_reason);
  } else if (kind === 'config') {
    const row = id
      ? (
          await q.query<Record<string, unknown>>(
            `SELECT id, name, type, config_class, status, health, labels, tags, description, parent_id, path,
                    created_at, updated_at, deleted_at
             FROM config_items WHERE id = $1`,
            [id],
          )
        ).rows[0]
      : undefined;
    vars.config = row ?? { id, name };
    name = str(row?.name) || name;
    status = str(row?.health) || event.split('.')[1];
    message = str(props.summary) || str(props.message) || str(row?.status);
  } else {
    const row = id
      ? (
          await q.query<Record<string, unknown>>(
            `SELECT r.id, r.status, r.playbook_id, r.parameters, r.created_at, p.name AS playbook_name, p.title AS playbook_title
             FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
            [id],
          )
        ).rows[0]
      : undefined;
    vars.run = row ?? { id };
    vars.playbook = { id: row?.playbook_id ?? props.playbook_id ?? null, name: row?.playbook_name ?? props.name ?? '' };
    name = str(row?.playbook_title) || str(row?.playbook_name) || name || 'playbook';
    status = str(row?.status) || status;
    message = str(props.message);
  }
  const link = linkOf(publicUrl, kind, id);
  vars.status = status;
  vars.permalink = link ?? '';
  return { event, resourceType: kind, resourceId: id, name, status, message, vars, link };
}

const TITLES: Record<string, string> = {
  'check.failed': 'Check {{.check.name}} has failed',
  'check.passed': 'Check {{.check.name}} has passed',
  'component.healthy': 'Component {{.component.name}} is healthy',
  'component.unhealthy': 'Component {{.component.name}} is unhealthy',
  'component.unknown': 'Component {{.component.name}} is in an unknown state',
  'component.warning': 'Component {{.component.name}} has a warning',
  'config.created': '{{.config.type}} {{.config.name}} was created',
  'config.deleted': '{{.config.type}} {{.config.name}} was deleted',
  'config.healthy': '{{.config.type}} {{.config.name}} is healthy',
  'config.unhealthy': '{{.config.type}} {{.config.name}} is unhealthy',
  'config.unknown': '{{.config.type}} {{.config.name}} is in an unknown state',
  'config.updated': '{{.config.type}} {{.config.name}} was updated',
  'config.warning': '{{.config.type}} {{.config.name}} has a warning',
  'playbook.approval.inserted': 'A run of playbook {{.playbook.name}} was approved',
  'playbook.spec.approval.updated': 'The approval of playbook {{.playbook.name}} was updated',
};

/** The default title of an event (README.md "Templates"). */
export const defaultTitle = (s: Subject) =>
  renderTemplate(TITLES[s.event] ?? s.event, s.vars)
    .replace(/\s+/g, ' ')
    .trim();

/** The default body: the resource, its status and message, and a link back, in Markdown. */
export function defaultBody(s: Subject): string {
  const lines = [`**${s.name || s.resourceType}** is ${s.status}`];
  if (s.message) lines.push(s.message);
  if (s.resourceType === 'check') {
    const canary = (s.vars.canary as { name?: string } | undefined)?.name;
    if (canary) lines.push(`Health check: ${canary}`);
  }
  if (s.link) lines.push(`[Open in Watchdeck](${s.link})`);
  return lines.join('\n');
}
