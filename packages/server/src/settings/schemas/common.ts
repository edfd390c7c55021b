/**
 * Building blocks shared by the spec schemas. Objects are loose (unknown keys are kept): specs
 * come from YAML written by people and GitOps tools, and many check and scraper options are
 * "YAML-only" (seed 002 section 3), so only the fields the seeds name are typed and required.
 */
import { z } from 'zod';

const keyRef = z.object({ name: z.string().min(1), key: z.string().min(1) });

/**
 * Secret-or-value input (seed 002 section 3): a literal `value`, or `valueFrom` with a
 * secretKeyRef or a configMapKeyRef (name, key). A bare string is accepted as a literal too.
 */
export const secretOrValue = z.union([
  z.string(),
  z.looseObject({
    value: z.string().optional(),
    valueFrom: z
      .object({ secretKeyRef: keyRef.optional(), configMapKeyRef: keyRef.optional() })
      .refine((v) => !(v.secretKeyRef && v.configMapKeyRef), 'use either secretKeyRef or configMapKeyRef, not both')
      .optional(),
  }),
]);

export const stringMap = z.record(z.string(), z.string());

/** A Go-style duration such as 30s, 5m, 1h30m, 7d. */
export const duration = z
  .string()
  .regex(/^(\d+(\.\d+)?(ms|s|m|h|d|w|y))+$/, 'must be a duration such as 30s, 5m, 1h or 7d');

/** Schedules are checked by the scheduler's own parser (see validate.ts); here only their type. */
export const schedule = z.string().min(1);

export const nonNegativeInt = z.number().int().min(0);

/** Script selectors of checks and scrapers: one of Go Template, Javascript, Expr, JSONPath. */
export const script = z.looseObject({
  template: z.string().optional(),
  javascript: z.string().optional(),
  expr: z.string().optional(),
  jsonPath: z.string().optional(),
});
