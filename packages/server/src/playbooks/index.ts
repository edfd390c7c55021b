/**
 * The playbooks area's server side (README.md in this folder): spec validation, the run engine,
 * its actions, triggers (cron, events, webhooks) and the routes that queue, approve, cancel and
 * re-run runs.
 *
 *   consumer            events
 *   playbooks.triggers  check.failed/passed, config.*, component.status.*: queue the playbooks whose `on` matches
 *   playbooks           (scheduled) one job per `on.schedule` entry: queue a run
 *   playbook-sources    (scheduled) one job per source with a schedule: sync its files (sync.ts)
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/index.ts';
import type { SecretBox } from '#server/connections/index.ts';
import type { Mailer } from '#server/mail/index.ts';
import type { Sandbox } from '#server/sandbox/index.ts';
import { PlaybookRunner } from './runner.ts';
import { playbookRoutes } from './routes.ts';
import { playbookSourceRoutes } from './source-routes.ts';
import { syncJobSource, type SyncDeps } from './sync.ts';
import { handleTriggerEvent, scheduleSource, TRIGGER_EVENTS } from './triggers.ts';

export { playbookWrites } from './spec.ts';
export { claimAgentAction, handedActionReports, reportAgentActions, runHandedAction } from './agent-actions.ts';

export interface PlaybooksDeps {
  db: Db;
  box?: SecretBox;
  mailer: Mailer;
  sandbox: Sandbox;
  config: Pick<Config, 'playbookWorkers' | 'publicUrl' | 'port' | 'dataDir' | 'playbookRoots'>;
}

export function registerPlaybooks(app: FastifyInstance, deps: PlaybooksDeps): void {
  const { db, box, mailer, sandbox, config } = deps;
  const log = app.log.child({ area: 'playbooks' });
  const engines = app.engines;
  const dataDir =
    !config.dataDir || config.dataDir === 'memory://' ? join(tmpdir(), 'watchdeck-memory') : config.dataDir;
  const roots = [join(dataDir, 'playbooks'), ...(config.playbookRoots ?? [])];
  const runner = new PlaybookRunner(db, { db, box, mailer, sandbox, gitRoots: roots }, log, {
    processId: engines.process.id,
    workers: config.playbookWorkers,
    // without WATCHDECK_PUBLIC_URL, the console as a script on this host reaches it
    publicUrl: config.publicUrl ?? `http://127.0.0.1:${config.port}`,
  });
  const wake = () => runner.wake();

  playbookRoutes(app, { db, wake });

  // Sources: git checkouts under the data directory; directories only under the allowed roots
  const sync: SyncDeps = {
    db,
    box,
    gitDir: join(dataDir, 'playbook-sources', 'git'),
    roots,
    log,
    changed: () => engines.scheduler.reload(),
  };
  playbookSourceRoutes(app, { ...sync, reload: () => engines.scheduler.reload() });
  engines.scheduler.addSource(syncJobSource(sync));

  engines.queue.consume(
    'playbooks.triggers',
    Object.keys(TRIGGER_EVENTS),
    (event, { done }) =>
      done(async (tx) => {
        if ((await handleTriggerEvent(event, tx, log)) > 0) setImmediate(wake);
      }),
    { batch: { size: 20 } },
  );
  engines.scheduler.addSource(scheduleSource(db, log, wake));

  // The runner works where the engines run (not in an api-only process) and stops with them.
  engines.onStart(async () => runner.start());
  app.addHook('onClose', async () => runner.stop());
}
