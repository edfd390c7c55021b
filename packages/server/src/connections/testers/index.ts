import { isValueReference } from '@watchdeck/core';
import { NotImplementedError, withTimeout, type PlainConnection, type Tester } from './common.ts';
import { testPostgres, testMysql, testRedis } from './databases.ts';
import {
  testHttp,
  testPrometheus,
  testElasticsearch,
  testGithub,
  testGitlab,
  testAzureDevops,
  testDynatrace,
} from './http-apis.ts';
import {
  testSmtp,
  testSftp,
  testSlack,
  testDiscord,
  testTeams,
  testMattermost,
  testRocketchat,
  testGoogleChat,
  testGenericWebhook,
  testTelegram,
  testPushover,
  testPushbullet,
  testNtfy,
  testOpsgenie,
  testMatrix,
  testZulip,
} from './notifications.ts';
import { testJira, testServiceNow, testMsPlanner } from './tickets.ts';

export { NotImplementedError, type PlainConnection } from './common.ts';

/**
 * Connection tests that really connect, one file per family (databases, HTTP APIs, notification
 * services, ticket systems). Each tester resolves on success and throws an Error whose message is
 * what a person needs to fix the connection. Types without a tester throw NotImplementedError,
 * which the route answers with the seeds' not-implemented outcome.
 */
const testers: Record<string, Tester> = {
  postgres: testPostgres,
  mysql: testMysql,
  redis: testRedis,
  http: testHttp,
  prometheus: testPrometheus,
  elasticsearch: testElasticsearch,
  github: testGithub,
  gitlab: testGitlab,
  azure_devops: testAzureDevops,
  dynatrace: testDynatrace,
  smtp: testSmtp,
  email: testSmtp,
  sftp: testSftp,
  slack: testSlack,
  discord: testDiscord,
  teams: testTeams,
  mattermost: testMattermost,
  rocketchat: testRocketchat,
  google_chat: testGoogleChat,
  generic_webhook: testGenericWebhook,
  telegram: testTelegram,
  pushover: testPushover,
  pushbullet: testPushbullet,
  ntfy: testNtfy,
  opsgenie: testOpsgenie,
  matrix: testMatrix,
  zulip_chat: testZulip,
  jira: testJira,
  service_now: testServiceNow,
  ms_planner: testMsPlanner,
};

/**
 * Values that live elsewhere (a Kubernetes secret or config map, a Helm release) are stored as
 * references; this server does not run inside a cluster, so it cannot read them and says so
 * instead of sending the reference to the peer as if it were the password.
 */
function unresolvedReference(c: PlainConnection): string | undefined {
  for (const field of ['url', 'username', 'password', 'certificate'] as const) {
    if (isValueReference(c[field])) return field;
  }
  return undefined;
}

export async function testConnection(c: PlainConnection): Promise<void> {
  const tester = testers[c.type];
  if (!tester) throw new NotImplementedError(c.type);
  const ref = unresolvedReference(c);
  if (ref) {
    throw new NotImplementedError(
      c.type,
      `the ${ref} comes from a Kubernetes secret, config map or Helm release; resolving those is not implemented, so the connection cannot be tested here`,
    );
  }
  await withTimeout(tester(c), `connecting to ${c.type}`);
}

/**
 * Removes every secret the connection holds from a text (an error message from a driver or a
 * peer may echo what it was given), so neither the API answer nor the log carries it.
 */
export function redactSecrets(text: string, c: PlainConnection): string {
  const secrets = new Set<string>();
  const add = (s: string | null | undefined) => {
    if (s && s.length >= 3) {
      secrets.add(s);
      secrets.add(encodeURIComponent(s));
    }
  };
  add(c.password);
  add(c.certificate);
  for (const raw of [c.url]) {
    if (!raw) continue;
    try {
      add(decodeURIComponent(new URL(raw).password));
    } catch {
      // not a URL: nothing embedded to find
    }
  }
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('********');
  return out;
}
