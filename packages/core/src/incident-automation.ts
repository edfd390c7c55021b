/**
 * What the server does on its own for incidents (server incidents/README.md): which connection
 * type serves each team responder type, Microsoft Planner's fixed priorities, the
 * definition-of-done default expression per evidence type, and the incident rule filter kinds.
 * Shared so the web offers exactly what the server understands.
 */
import type { AutomaticDodType } from './definition-of-done.ts';
import type { TeamResponderType } from './incidents.ts';

/** The connection type a team responder type dispatches through (email: an 'email' connection or SMTP_URL). */
export const RESPONDER_CONNECTION_TYPE: Record<TeamResponderType, string> = {
  email: 'email',
  jira: 'jira',
  service_now: 'service_now',
  ms_planner: 'ms_planner',
  ca: 'case_webhook',
  aws_support: 'case_webhook',
  aws_ams_services_request: 'case_webhook',
  redhat: 'case_webhook',
  oracle: 'case_webhook',
  vmware: 'case_webhook',
};

/**
 * Planner's priorities are numbers 0-10; the four it names (Graph: plannerTask.priority). The form
 * stores the name (`value`); the server sends the number.
 */
export const PLANNER_PRIORITIES = [
  { value: 'urgent', label: 'Urgent', priority: 1 },
  { value: 'important', label: 'Important', priority: 3 },
  { value: 'medium', label: 'Medium', priority: 5 },
  { value: 'low', label: 'Low', priority: 9 },
] as const;

/** A planner priority as Graph takes it, from a name (urgent, important, medium, low) or a number 0-10. */
export function plannerPriority(value: unknown): number | undefined {
  const text = String(value ?? '')
    .trim()
    .toLowerCase();
  const named = PLANNER_PRIORITIES.find((p) => p.value === text);
  if (named) return named.priority;
  const n = Number(text);
  return text !== '' && Number.isInteger(n) && n >= 0 && n <= 10 ? n : undefined;
}

/**
 * What an automatic definition of done without a script means, per evidence type: the resource is
 * healthy (a check for over 5 minutes since its last transition), an insight is resolved, the
 * config a change was made to is healthy, the component a log was read from is healthy.
 */
export const DOD_DEFAULT_SCRIPTS: Record<AutomaticDodType, string> = {
  check: 'check.status == "healthy" && check.age > duration("5m")',
  topology: 'component.status == "healthy"',
  config: 'config.health == "healthy"',
  config_analysis: 'analysis.status == "resolved"',
  config_change: 'config.health == "healthy"',
  log: 'component.status == "healthy"',
};

/** The events the definition-of-done evaluator publishes when an evidence flips. */
export const DOD_EVENTS = { passed: 'incident.dod.passed', regressed: 'incident.dod.regressed' } as const;

/** The resources an incident rule watches (`spec.filter.kind`). */
export const INCIDENT_RULE_KINDS = ['check', 'component'] as const;
