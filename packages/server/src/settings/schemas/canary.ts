/** Health check (canary) spec, seed 002 section 3: each check type is a list under its name. */
import { z } from 'zod';
import { checkRoots, localPathRefusal } from '#server/git/index.ts';
import { nonNegativeInt, schedule, script, secretOrValue, stringMap } from './common.ts';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

const check = {
  name: z.string().min(1),
  description: z.string().optional(),
  icon: z.string().optional(),
  labels: stringMap.optional(),
  schedule: schedule.optional(),
  test: script.optional(),
  display: script.optional(),
  transform: script.optional(),
};

const header = z.looseObject({
  name: z.string().min(1),
  value: z.string().optional(),
  valueFrom: z.unknown().optional(),
});

const httpCheck = z
  .looseObject({
    ...check,
    url: z.string().min(1),
    method: z.enum(HTTP_METHODS).optional(),
    body: z.string().optional(),
    headers: z.array(header).optional(),
    // Auth selector: None, basic, ntlm or ntlmv2 (the flags pick NTLM variants).
    authentication: z
      .looseObject({
        username: secretOrValue,
        password: secretOrValue,
        ntlm: z.boolean().optional(),
        ntlmv2: z.boolean().optional(),
      })
      .optional(),
    responseCodes: z.array(z.number().int()).optional(),
    thresholdMillis: nonNegativeInt.optional(),
    responseContent: z.string().optional(),
    maxSSLExpiry: nonNegativeInt.optional(),
  })
  // seed 002 section 5: 'HTTP check body is allowed only for POST and PUT'.
  .refine((c) => c.body === undefined || c.method === 'POST' || c.method === 'PUT', {
    message: 'body is allowed only for POST and PUT',
    path: ['body'],
  });

const connectionRef = z.union([z.string(), z.looseObject({})]);

export const canarySpec = z.looseObject({
  schedule: schedule.optional(),
  icon: z.string().optional(),
  description: z.string().optional(),
  http: z.array(httpCheck).optional(),
  alertManager: z
    .array(
      z.looseObject({
        ...check,
        host: z.string().min(1),
        alerts: z.array(z.string()).optional(),
        filters: stringMap.optional(),
        ignore: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  elasticsearch: z
    .array(
      z.looseObject({
        ...check,
        url: z.string().optional(),
        index: z.string().optional(),
        query: z.string().min(1),
        results: nonNegativeInt.optional(),
      }),
    )
    .optional(),
  exec: z.array(z.looseObject({ ...check, script: z.string().min(1) })).optional(),
  folder: z
    .array(
      z.looseObject({
        ...check,
        // only folders under the check roots (WATCHDECK_CHECK_ROOTS); the runner checks the real path too
        path: z
          .string()
          .min(1)
          .superRefine((p, ctx) => {
            const refusal = localPathRefusal(p, checkRoots(), 'WATCHDECK_CHECK_ROOTS');
            if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
          }),
        minAge: z.string().optional(),
        maxAge: z.string().optional(),
        minCount: nonNegativeInt.optional(),
        maxCount: nonNegativeInt.optional(),
        minSize: z.string().optional(),
        maxSize: z.string().optional(),
        availableSize: z.string().optional(),
        totalSize: z.string().optional(),
        filter: z.looseObject({}).optional(),
        // AWS / GCP / SFTP / SMB connection details
        awsConnection: connectionRef.optional(),
        gcpConnection: connectionRef.optional(),
        sftpConnection: connectionRef.optional(),
        smbConnection: connectionRef.optional(),
      }),
    )
    .optional(),
  icmp: z
    .array(
      z.looseObject({
        ...check,
        endpoint: z.string().min(1),
        packetCount: nonNegativeInt.optional(),
        packetLossThreshold: nonNegativeInt.optional(),
        thresholdMillis: nonNegativeInt.optional(),
      }),
    )
    .optional(),
  mongo: z.array(z.looseObject({ ...check, connection: z.string().optional(), url: z.string().optional() })).optional(),
  redis: z.array(z.looseObject({ ...check, addr: z.string().min(1), db: nonNegativeInt.default(0) })).optional(),
  tcp: z
    .array(z.looseObject({ ...check, endpoint: z.string().min(1), thresholdMillis: nonNegativeInt.optional() }))
    .optional(),
});
