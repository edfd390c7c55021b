/**
 * The `agent` command's arguments and its life: engines started on this database, agent mode's
 * loops (mode.ts), a clean stop on SIGTERM/SIGINT and exit 1 with the reason when the upstream
 * refuses the token.
 */
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.ts';
import { version } from '../version.ts';
import { startAgentMode } from './mode.ts';

export interface AgentArgs {
  upstream: string;
  token: string;
}

const USAGE = 'usage: watchdeck agent --upstream URL --token TOKEN (or WATCHDECK_UPSTREAM and WATCHDECK_AGENT_TOKEN)';

/** --upstream/--token (also --x=value), else the environment; the upstream must be http(s). */
export function agentArgs(argv: readonly string[], env: NodeJS.ProcessEnv): AgentArgs | { error: string } {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(upstream|token)(?:=(.*))?$/.exec(argv[i]);
    if (!m) return { error: `unknown argument "${argv[i]}"; ${USAGE}` };
    flags[m[1]] = m[2] ?? argv[++i] ?? '';
  }
  const upstream = (flags.upstream || env.WATCHDECK_UPSTREAM || '').trim();
  const token = (flags.token || env.WATCHDECK_AGENT_TOKEN || '').trim();
  if (!upstream || !token) return { error: USAGE };
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    return { error: `--upstream must be a URL such as https://watchdeck.example.com, not "${upstream}"` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `--upstream must be an http or https URL, not "${upstream}"` };
  return { upstream: url.toString(), token };
}

export async function runAgent(app: FastifyInstance, db: Db, args: AgentArgs): Promise<void> {
  const log = app.log.child({ area: 'agent' });
  await app.ready();
  await app.engines.start();
  let closing = false;
  const close = async (code: number) => {
    if (closing) return;
    closing = true;
    mode.stop();
    await app.close();
    await db.close();
    process.exit(code);
  };
  const mode = startAgentMode({
    db,
    upstream: args.upstream,
    token: args.token,
    log,
    reload: () => app.engines.scheduler.reload(),
    version,
    hostname: hostname(),
    onFatal: (err) => {
      log.error(err.message);
      console.error(err.message);
      void close(1);
    },
  });
  log.info({ upstream: args.upstream }, 'agent: running the engines here, pushing to the upstream');
  process.on('SIGTERM', () => void close(0));
  process.on('SIGINT', () => void close(0));
}
