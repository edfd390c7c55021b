import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * Exec check (seed 002: script required): runs the script with bash (sh when bash is missing) on
 * this server, with the check's timeout; stdout, stderr and the exit code go to the `test`
 * expression (also as `results.*`). A non-zero exit fails the check. On timeout the whole process
 * group is killed, so a script's children do not outlive it. Writing canaries is an editor/admin
 * permission because of this: a canary can run commands as the server's user.
 */
const MAX_OUTPUT = 64 * 1024;
const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

export async function execCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const script = typeof spec.script === 'string' ? spec.script : undefined;
  if (!script?.trim()) throw new Error('script is required');
  // Not the server's environment: it holds DATABASE_URL and WATCHDECK_SECRET_KEY. Scripts get a
  // plain shell environment plus the env the spec gives.
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k]!;
  if (Array.isArray(spec.env)) {
    for (const e of spec.env as Record<string, unknown>[]) if (e && typeof e.name === 'string') env[e.name] = String(e.value ?? '');
  }
  const cwd = str(spec, 'workDir');
  const { stdout, stderr, exitCode, timedOut } = await new Promise<{ stdout: string; stderr: string; exitCode: number; timedOut: boolean }>((resolve, reject) => {
    const child = spawn(SHELL, ['-c', script], { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => void (out.length < MAX_OUTPUT && (out += d.toString('utf8'))));
    child.stderr.on('data', (d: Buffer) => void (err.length < MAX_OUTPUT && (err += d.toString('utf8'))));
    const kill = () => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    ctx.signal.addEventListener('abort', kill, { once: true });
    child.on('error', (e) => {
      ctx.signal.removeEventListener('abort', kill);
      reject(new Error(`cannot start ${SHELL}: ${e.message}`));
    });
    child.on('close', (code, sig) => {
      ctx.signal.removeEventListener('abort', kill);
      resolve({ stdout: out.slice(0, MAX_OUTPUT), stderr: err.slice(0, MAX_OUTPUT), exitCode: code ?? (sig ? 128 : 1), timedOut });
    });
  });
  if (timedOut) throw ctx.signal.reason as Error;
  const results = { stdout: stdout.trim(), stderr: stderr.trim(), exitCode };
  const vars = { ...results, results };
  const message = (stdout.trim() || stderr.trim()).slice(0, 1000);
  if (exitCode !== 0) {
    const tail = stderr.trim().split('\n').slice(-5).join('\n') || stdout.trim().split('\n').slice(-5).join('\n');
    return { pass: false, message, error: `script exited with code ${exitCode}${tail ? `: ${tail}` : ''}`, vars };
  }
  return { pass: true, message, vars };
}
