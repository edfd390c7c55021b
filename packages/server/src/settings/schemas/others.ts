import { z } from 'zod';
import {
  INCIDENT_RULE_KINDS,
  INCIDENT_TYPES,
  RESPONDER_TYPES,
  SEVERITIES,
  loggingBackendSpecSchema,
} from '@watchdeck/core';
import { duration } from './common.ts';

/** Topology spec: core's schema (topology-spec.ts), which the topology engine reconciles. */
export { topologySpecSchema as topologySpec } from '@watchdeck/core';

/**
 * Team spec: how incidents reach the team (responder clients, server incidents/README.md) and
 * notification settings. Per responder type: the connection (by name) to open tickets with, fixed
 * `values`, `defaults` templates (`{{.incident.title}}`) and the ticket's `linkUrl` template.
 */
const responderClient = z.looseObject({
  connection: z.string().min(1).optional(),
  values: z.record(z.string(), z.unknown()).optional(),
  defaults: z.record(z.string(), z.string()).optional(),
  linkUrl: z.string().optional(),
});

export const teamSpec = z.looseObject({
  responder_clients: z
    .record(z.string(), responderClient)
    .refine(
      (clients) =>
        Object.keys(clients).every((k) => k !== 'person' && (RESPONDER_TYPES as readonly string[]).includes(k)),
      {
        message: `keys are team responder types: ${RESPONDER_TYPES.filter((t) => t !== 'person').join(', ')}`,
      },
    )
    .optional(),
  notifications: z.array(z.looseObject({})).optional(),
});

/** Names with `*` globs; a leading `!` excludes. */
const globs = z.array(z.string().min(1));

/**
 * Incident rule spec (server incidents/README.md "Incident rules"): a check that fails or a
 * component that turns unhealthy and matches `filter` opens an incident from `template` (or joins
 * the rule's open incident as evidence); `responders` are added; with `autoResolve` the incident
 * is resolved once every resource the rule added is healthy again. Rules are tried by priority,
 * highest first; the first match acts.
 */
export const incidentRuleSpec = z.looseObject({
  name: z.string().optional(),
  priority: z.number().int().optional(),
  filter: z
    .looseObject({
      kind: z.union([z.enum(INCIDENT_RULE_KINDS), z.array(z.enum(INCIDENT_RULE_KINDS)).min(1)]).optional(),
      names: globs.optional(),
      types: globs.optional(),
      namespaces: globs.optional(),
      labels: z.record(z.string(), z.string()).optional(),
      /** check severities; a rule that lists them matches no component */
      severities: z.array(z.enum(SEVERITIES)).optional(),
    })
    .optional(),
  autoResolve: z.boolean().optional(),
  autoClose: z.looseObject({ timeout: duration.optional() }).optional(),
  template: z
    .looseObject({
      type: z.enum(INCIDENT_TYPES).optional(),
      severity: z.enum(SEVERITIES).optional(),
      title: z.string().optional(),
      description: z.string().optional(),
    })
    .optional(),
  responders: z
    .looseObject({
      teams: z
        .array(
          z.union([
            z.string().min(1),
            z.looseObject({ name: z.string().min(1), type: z.enum(RESPONDER_TYPES).exclude(['person']).optional() }),
          ]),
        )
        .optional(),
      people: z.array(z.string().min(1)).optional(),
    })
    .optional(),
});

/** Log backend spec: exactly one backend kind (file, postgres, loki, elasticsearch, opensearch); core logs.ts. */
export const loggingBackendSpec = loggingBackendSpecSchema;
