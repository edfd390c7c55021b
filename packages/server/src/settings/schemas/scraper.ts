/**
 * Catalog scraper spec, seed 002 section 3: every scraper kind is a list under its name; all share
 * schedule and retention, and each entry the advanced options createFields, deleteFields,
 * timestampFormat and items.
 */
import { z } from 'zod';
import { duration, nonNegativeInt, schedule, secretOrValue, stringMap } from './common.ts';

const advanced = {
  createFields: z.array(z.string()).optional(),
  deleteFields: z.array(z.string()).optional(),
  timestampFormat: z.string().optional(),
  items: z.string().optional(),
  // The identity of items a generic scraper produces: type and id are JSONPath-ish strings.
  name: z.string().optional(),
  labels: stringMap.optional(),
  tags: stringMap.optional(),
};

const retention = z.looseObject({
  changes: z
    .array(z.looseObject({ name: z.string().min(1), age: duration.optional(), count: nonNegativeInt.optional() }))
    .optional(),
  types: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        createdAge: duration.optional(),
        updatedAge: duration.optional(),
        deletedAge: duration.optional(),
      }),
    )
    .optional(),
});

const kubernetes = z.looseObject({
  ...advanced,
  clusterName: z.string().min(1),
  kubeconfig: secretOrValue.optional(),
  watch: z.array(z.looseObject({})).optional(),
  exclusions: z.looseObject({}).optional(),
  namespace: z.string().optional(),
  scope: z.string().optional(),
  since: z.string().optional(),
  selector: z.string().optional(),
  fieldSelector: z.string().optional(),
  maxInFlight: nonNegativeInt.default(64),
});

const aws = z.looseObject({
  ...advanced,
  awsConnection: z
    .looseObject({
      connection: z.string().optional(),
      accessKey: secretOrValue.optional(),
      secretKey: secretOrValue.optional(),
      region: z.array(z.string()).or(z.string()).optional(),
      endpoint: z.string().optional(),
      skipTLSVerify: z.boolean().optional(),
      assumeRole: z.string().optional(),
    })
    .optional(),
  cloudtrail: z.looseObject({ exclude: z.array(z.string()).optional(), max_age: duration.optional() }).optional(),
  trusted_advisor_check: z.boolean().optional(),
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  cost_reporting: z
    .looseObject({
      s3_bucket_path: z.string().optional(),
      table: z.string().optional(),
      database: z.string().optional(),
      region: z.string().optional(),
    })
    .optional(),
});

const azure = z.looseObject({
  ...advanced,
  connection: z.string().optional(),
  subscriptionID: z.string().optional(),
});

const azureDevops = z.looseObject({
  ...advanced,
  connection: z.string().optional(),
  organization: z.string().optional(),
  personalAccessToken: secretOrValue.optional(),
  pipelines: z.array(z.string()).optional(),
  projects: z.array(z.string()).optional(),
});

const file = z.looseObject({
  ...advanced,
  format: z.string().min(1),
  icon: z.string().min(1),
  type: z.string().optional(),
  url: z.string().optional(),
  id: z.string().optional(),
  ignore: z.array(z.string()).optional(),
  paths: z.array(z.string()).optional(),
});

const githubActions = z.looseObject({
  ...advanced,
  owner: z.string().min(1),
  repository: z.string().min(1),
  workflows: z.array(z.string()).optional(),
  personalAccessToken: secretOrValue.optional(),
});

const http = z.looseObject({ ...advanced, url: z.string().min(1), type: z.string().min(1), id: z.string().min(1) });

const kubernetesFile = z.looseObject({
  ...advanced,
  type: z.string().min(1),
  id: z.string().min(1),
  selector: z
    .looseObject({
      kind: z.string().optional(),
      name: z.string().optional(),
      namespace: z.string().optional(),
      fieldSelector: z.string().optional(),
      labelSelector: z.string().optional(),
    })
    .optional(),
  container: z.string().optional(),
  format: z.string().optional(),
  files: z
    .array(z.looseObject({ format: z.string().optional(), path: z.array(z.string()).or(z.string()).optional() }))
    .optional(),
});

const sql = z.looseObject({
  ...advanced,
  type: z.string().min(1),
  id: z.string().min(1),
  connection: z.string().min(1),
  query: z.string().min(1),
  driver: z.string().optional(),
  auth: z.looseObject({ username: secretOrValue.optional(), password: secretOrValue.optional() }).optional(),
});

const trivy = z.looseObject({
  ...advanced,
  compliance: z.array(z.string()).optional(),
  ignoreUnfixed: z.boolean().optional(),
  ignoredLicenses: z.array(z.string()).optional(),
  licenseFull: z.boolean().optional(),
  scanners: z.array(z.string()).optional(),
  severity: z.array(z.string()).optional(),
  timeout: z.string().optional(),
  version: z.string().optional(),
  vulnType: z.array(z.string()).optional(),
  kubernetes: z
    .looseObject({
      components: z.array(z.string()).optional(),
      context: z.string().optional(),
      kubeconfig: z.string().optional(),
      namespace: z.string().optional(),
    })
    .optional(),
});

export const scraperSpec = z.looseObject({
  schedule: schedule.optional(),
  retention: retention.optional(),
  kubernetes: z.array(kubernetes).optional(),
  aws: z.array(aws).optional(),
  azure: z.array(azure).optional(),
  azureDevops: z.array(azureDevops).optional(),
  file: z.array(file).optional(),
  githubActions: z.array(githubActions).optional(),
  http: z.array(http).optional(),
  kubernetesFile: z.array(kubernetesFile).optional(),
  sql: z.array(sql).optional(),
  trivy: z.array(trivy).optional(),
  custom: z.array(z.looseObject({})).optional(),
});
