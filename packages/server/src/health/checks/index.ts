import type { CheckRunner } from './types.ts';
import { httpCheck } from './http.ts';
import { tcpCheck } from './tcp.ts';
import { dnsCheck } from './dns.ts';
import { icmpCheck } from './icmp.ts';
import { tlsCheck } from './tls.ts';
import { execCheck } from './exec.ts';
import { mysqlCheck, postgresCheck } from './sql.ts';
import { redisCheck } from './redis.ts';
import { prometheusCheck } from './prometheus.ts';
import { alertmanagerCheck } from './alertmanager.ts';
import { folderCheck } from './folder.ts';

export type { CheckOutcome, CheckRunner, ChildOutcome } from './types.ts';

/** The check types this server really runs, by checks.type (spec keys lower-cased). */
export const CHECK_RUNNERS: Record<string, CheckRunner> = {
  http: httpCheck,
  tcp: tcpCheck,
  dns: dnsCheck,
  icmp: icmpCheck,
  tls: tlsCheck,
  exec: execCheck,
  postgres: postgresCheck,
  mysql: mysqlCheck,
  redis: redisCheck,
  prometheus: prometheusCheck,
  alertmanager: alertmanagerCheck,
  folder: folderCheck,
};
