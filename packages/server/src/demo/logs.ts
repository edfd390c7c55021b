/**
 * The demo's log files, written by what really runs: the console's own HTTP access log (the demo
 * checks call it every few seconds, people browse it) and the engines' job runs, one line per
 * finished run. They go under <data dir>/logs/demo/<service>/, which the demo's file log backend
 * `app-logs` reads (demo/settings.ts). A file past MAX_BYTES is moved to <name>.1.log.
 */
import { createWriteStream, mkdirSync, renameSync, statSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { observeJobRuns } from '#server/jobs/index.ts';
import { redactUrl } from '#server/auth/index.ts';

const MAX_BYTES = 20 * 1024 * 1024;

/** The demo backend's globs, relative to the log root: `service` is a label taken from the path. */
export const DEMO_LOG_PATHS = ['demo/{service}/*.log'];

class RotatingFile {
  private stream: WriteStream | undefined;
  private size = 0;
  constructor(private readonly path: string) {}

  write(line: string) {
    if (!this.stream) {
      this.size = statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
      this.stream = createWriteStream(this.path, { flags: 'a' });
      this.stream.on('error', () => undefined);
    }
    if (this.size > MAX_BYTES) {
      this.stream.end();
      try {
        renameSync(this.path, this.path.replace(/\.log$/, '.1.log'));
      } catch {
        // another process moved it
      }
      this.size = 0;
      this.stream = createWriteStream(this.path, { flags: 'a' });
      this.stream.on('error', () => undefined);
    }
    this.size += Buffer.byteLength(line) + 1;
    this.stream.write(`${line}\n`);
  }

  close() {
    this.stream?.end();
  }
}

/**
 * Writes from the moment this process starts its engines (a served demo, not an app built for a
 * test), so nothing is written under the data directory of a process that only answers requests.
 */
export function startDemoLogs(app: FastifyInstance, logsDir: string): void {
  const file = (service: string, name: string) => new RotatingFile(join(logsDir, 'demo', service, name));
  const access = file('console', 'access.log');
  const jobs = file('engines', 'jobs.log');
  let writing = false;
  let stop = () => {};
  app.engines.onStart(async () => {
    for (const service of ['console', 'engines']) mkdirSync(join(logsDir, 'demo', service), { recursive: true });
    writing = true;
    stop = observeJobRuns((run) => {
      const level = run.status === 'FAILED' ? 'ERROR' : run.status === 'WARNING' ? 'WARN' : 'INFO';
      jobs.write(
        `${new Date().toISOString()} ${level} job ${run.name} ${run.status} in ${Math.round(run.durationMs)}ms`,
      );
    });
  });

  app.addHook('onResponse', async (req, reply) => {
    if (!writing) return;
    const status = reply.statusCode;
    const level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO';
    access.write(
      `${new Date().toISOString()} ${level} ${req.method} ${redactUrl(req.url)} ${status} ${Math.round(reply.elapsedTime)}ms`,
    );
  });
  app.addHook('onClose', async () => {
    stop();
    access.close();
    jobs.close();
  });
}
