import { type CheckContext, type CheckOutcome } from './types.ts';

/**
 * Exec check (seed 002: script required): runs the script with bash (sh when bash is missing) in
 * the sandbox (../../sandbox): an unprivileged user in its own PID and mount namespaces, which
 * sees neither the server's process, environment nor data directory, within the check's timeout
 * and the sandbox's memory, process and output limits. stdout, stderr and the exit code go to
 * the `test` expression (also as `results.*`). A non-zero exit fails the check. Without
 * isolation (no bubblewrap) the check fails with the reason and the script is not run.
 */
export async function execCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const script = typeof spec.script === 'string' ? spec.script : undefined;
  if (!script?.trim()) throw new Error('script is required');
  // Only the env the spec gives; the sandbox adds PATH, HOME and LANG.
  const env: Record<string, string> = {};
  if (Array.isArray(spec.env)) {
    for (const e of spec.env as Record<string, unknown>[])
      if (e && typeof e.name === 'string') env[e.name] = String(e.value ?? '');
  }
  const r = await ctx.sandbox.run({ script, env, signal: ctx.signal, limits: { timeoutMs: ctx.timeoutMs } });
  if (r.timedOut)
    throw (ctx.signal.reason as Error | undefined) ?? new Error(`timed out after ${ctx.timeoutMs / 1000}s (timeout)`);
  const stdout = r.stdout.trim();
  const stderr = r.stderr.trim();
  const results = {
    stdout,
    stderr,
    exitCode: r.exitCode,
    stdoutTruncated: r.stdoutTruncated,
    stderrTruncated: r.stderrTruncated,
  };
  const vars = { ...results, results };
  // Output past the sandbox's cap was dropped: said in the error and kept in the run's detail.
  const truncated = r.stdoutTruncated || r.stderrTruncated;
  const detail = truncated
    ? { detail: { stdoutTruncated: r.stdoutTruncated, stderrTruncated: r.stderrTruncated } }
    : {};
  const message = (stdout || stderr).slice(0, 1000);
  if (r.exitCode !== 0) {
    const tail = stderr.split('\n').slice(-5).join('\n') || stdout.split('\n').slice(-5).join('\n');
    const cut = truncated ? ' (output truncated)' : '';
    return {
      pass: false,
      message,
      error: `script exited with code ${r.exitCode}${tail ? `: ${tail}` : ''}${cut}`,
      vars,
      ...detail,
    };
  }
  return { pass: true, message, vars, ...detail };
}
