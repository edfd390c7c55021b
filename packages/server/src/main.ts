import { loadConfig, scrubSecretEnv } from './config.ts';
import { openDb, migrate } from './db/index.ts';
import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './auth/first-run.ts';
import { demoTargets, seedDemo } from './demo/seed.ts';
import { logDestinationFor } from './log-format.ts';
import { agentArgs, runAgent as runAgentMode } from './agents/cli.ts';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';

const command = process.argv[2] ?? 'serve';

async function main() {
  const config = loadConfig();
  // Held in memory from here on; nothing started later inherits them (README "Secrets").
  scrubSecretEnv();
  // a connection that fails while idle is logged once the app's logger exists
  const logger: { current?: { warn(obj: object, msg: string): void } } = {};
  const db = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    onError: (err) =>
      logger.current?.warn(
        { err: { message: err.message, code: (err as { code?: string }).code } },
        'database connection lost; the pool opens a new one',
      ),
  });
  await migrate(db);

  if (command === 'migrate') return db.close();
  // the demo's health checks watch this console: its port, its database, its files
  const targets = demoTargets(config);
  if (command === 'seed-demo') {
    await seedDemo(db, { force: true, targets });
    return db.close();
  }
  if (command === 'agent') return runAgent(config, db, logger);
  if (command !== 'serve') {
    console.error(`unknown command "${command}"; expected serve | migrate | seed-demo | agent`);
    await db.close();
    process.exit(2);
  }

  if (config.demoData) await seedDemo(db, { force: false, targets });
  // JSON lines for collectors; readable lines when a person watches the terminal
  const app = await buildApp({ config, db, logStream: logDestinationFor(process.stdout) });
  logger.current = app.log;
  await ensureFirstAdmin(db, config, app.log); // only when nobody has the admin role yet

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Readiness fails first; requests are still served while load balancers notice.
    app.readiness.draining = true;
    if (config.shutdownDrainMs > 0) {
      app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: draining (readiness fails)');
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    }
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    await app.close(); // stops accepting, waits for in-flight requests, runs onClose hooks
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.role !== 'api') await app.engines.start();
  // A worker-only replica still answers /api/health for its orchestrator.
  await app.listen({ port: config.port, host: config.host });
}

/** `watchdeck agent --upstream URL --token T`: the engines on this database, results to the upstream. */
async function runAgent(config: Config, db: Db, logger: { current?: unknown }) {
  const args = agentArgs(process.argv.slice(3), process.env);
  if ('error' in args) {
    console.error(args.error);
    await db.close();
    process.exit(2);
  }
  const app = await buildApp({
    config: { ...config, demoData: false },
    db,
    logStream: logDestinationFor(process.stdout),
  });
  logger.current = app.log;
  await runAgentMode(app, db, args);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
