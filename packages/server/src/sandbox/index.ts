/**
 * Runs scripts (exec checks now, playbook exec actions later) isolated from the server, with
 * Debian's bubblewrap (DESIGN section 5). A script runs:
 * - as an unprivileged user: uid/gid 65534 inside a new user namespace; when the server runs as
 *   root, bwrap itself is started as 65534 (setpriv), so the script is nobody on the host too;
 * - in new PID, mount, IPC and UTS namespaces: its own /proc shows only the sandbox's processes,
 *   so the server's /proc/<pid>/environ and command line are out of reach;
 * - on a minimal read-only root (/usr, /bin, /lib*, an allow-list of /etc without shadow files or
 *   private keys), a private tmpfs /tmp as working directory and HOME; the server's data
 *   directory, the repository and the secret files are not mounted (and masked should they lie
 *   under a mounted tree);
 * - with a clean environment (PATH, HOME, LANG and what the caller gives);
 * - with limits: wall-clock time (the whole namespace is killed), address space, processes,
 *   tmpfs size, and the output kept per stream.
 * The network stays shared: checks need it.
 *
 * Whether this works is probed once (bwrap present, namespaces allowed for this user). When it
 * does not, every run is refused with SandboxUnavailableError: a script never runs bare.
 */
import { spawn, type StdioOptions } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { isAbsolute, normalize, posix, resolve } from 'node:path';
import type { Writable } from 'node:stream';

interface ScriptLimits {
  /** wall clock; the sandbox is killed when it passes */
  timeoutMs: number;
  /** address space of each process (RLIMIT_AS); also the size of the private /tmp */
  memoryBytes: number;
  /** processes the script may have at once (RLIMIT_NPROC, counted inside the sandbox) */
  maxProcesses: number;
  /** bytes of stdout and of stderr kept; the rest is read and dropped, and marked truncated */
  maxOutputBytes: number;
}

interface ScriptRequest {
  /** a shell script, run by bash (sh where bash is missing); or give `command` */
  script?: string;
  /** argv of a program to run instead of a script (a name found in PATH, or an absolute path) */
  command?: string[];
  /** environment of the script, on top of PATH, HOME and LANG */
  env?: Record<string, string>;
  /** files written into the working directory (/tmp) before the script starts, by relative path */
  files?: Record<string, string | Uint8Array>;
  stdin?: string;
  limits?: Partial<ScriptLimits>;
  /** aborting kills the sandbox (the result then says timedOut) */
  signal?: AbortSignal;
}

interface ScriptResult {
  /** the script's exit code; 128 + signal number when a signal ended it */
  exitCode: number;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  durationMs: number;
  /** killed by the time limit or by the caller's signal */
  timedOut: boolean;
}

interface SandboxStatus {
  available: boolean;
  /** why not, when not available */
  reason?: string;
}

export interface SandboxOptions {
  /** path of the bwrap binary (WATCHDECK_SANDBOX_BWRAP) */
  bwrap?: string;
  /** defaults of every run; a request may lower or raise them */
  limits?: Partial<ScriptLimits>;
  /** host paths a script must never see, e.g. the data directory and secret files */
  hide?: string[];
}

export interface Sandbox {
  /** whether scripts can run isolated here (probed once; a failed probe is retried on the next run) */
  probe(): Promise<SandboxStatus>;
  /** runs a script; rejects with SandboxUnavailableError when isolation is unavailable */
  run(req: ScriptRequest): Promise<ScriptResult>;
}

export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(
      `script isolation unavailable: install bubblewrap (apt-get install -y bubblewrap) and allow this user to create user namespaces; scripts are not run without isolation (${reason})`,
    );
    this.name = 'SandboxUnavailableError';
  }
}

const DEFAULT_LIMITS: ScriptLimits = {
  timeoutMs: 30_000,
  memoryBytes: 512 * 1024 * 1024,
  maxProcesses: 64,
  maxOutputBytes: 64 * 1024,
};

/** The user scripts run as: nobody/nogroup on Debian. */
const SANDBOX_UID = 65534;
const SANDBOX_GID = 65534;
const SETPRIV = '/usr/bin/setpriv';
const PRLIMIT = '/usr/bin/prlimit';
const PATH = '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin';
/** Where the script file is placed inside the sandbox (read-only). */
const SCRIPT_PATH = '/run/watchdeck/script';
const WORK_DIR = '/tmp';

/**
 * /etc entries a script may need (name resolution, TLS roots, users, time zone, the dynamic
 * loader, Debian's alternatives symlinks). Everything else in /etc stays out: shadow files,
 * ssh host keys, /etc/ssl/private, service configuration with passwords.
 */
const ETC_ALLOWED = [
  'alternatives',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'gai.conf',
  'group',
  'host.conf',
  'hostname',
  'hosts',
  'inputrc',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'mime.types',
  'networks',
  'nsswitch.conf',
  'os-release',
  'passwd',
  'protocols',
  'resolv.conf',
  'services',
  'ssl/certs',
  'ssl/openssl.cnf',
  'timezone',
];
/** Top-level directories of the host's /usr tree: bound read-only, or recreated as symlinks (merged /usr). */
const ROOT_DIRS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function resolvedLimits(base: ScriptLimits, over: Partial<ScriptLimits> | undefined): ScriptLimits {
  const out = { ...base };
  for (const k of Object.keys(base) as (keyof ScriptLimits)[]) {
    const v = over?.[k];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[k] = Math.floor(v);
  }
  return out;
}

/** A relative path inside the working directory, or an error naming the bad one. */
function workPath(name: string): string {
  const p = posix.normalize(name);
  if (!name || isAbsolute(name) || p.startsWith('..') || p === '.' || p.includes('\0')) {
    throw new Error(`file name "${name}" must be a relative path inside the working directory`);
  }
  return posix.join(WORK_DIR, p);
}

/** The mounts every sandbox shares: the read-only root and the masks over hidden paths. */
function rootMounts(hide: string[]): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  const mounted = ['/usr'];
  for (const d of ROOT_DIRS) {
    const host = `/${d}`;
    let st;
    try {
      st = lstatSync(host);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(host), host);
    else if (st.isDirectory()) {
      args.push('--ro-bind', host, host);
      mounted.push(host);
    }
  }
  for (const e of ETC_ALLOWED) {
    args.push('--ro-bind-try', `/etc/${e}`, `/etc/${e}`);
    mounted.push(`/etc/${e}`);
  }
  // A hidden path that lies under a mounted tree (a data directory under /usr, a secret file in
  // an allowed /etc entry) gets an empty tmpfs, or /dev/null (unreadable on the nodev bind), over it.
  for (const raw of hide) {
    let p: string;
    try {
      p = realpathSync(raw);
    } catch {
      continue;
    }
    if (!mounted.some((m) => p === m || p.startsWith(m + '/'))) continue;
    if (statSync(p).isDirectory()) args.push('--tmpfs', p);
    else args.push('--ro-bind', '/dev/null', p);
  }
  return args;
}

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const bwrap = opts.bwrap || '/usr/bin/bwrap';
  const defaults = resolvedLimits(DEFAULT_LIMITS, opts.limits);
  const hide = (opts.hide ?? []).filter(Boolean).map((p) => normalize(resolve(p)));
  let mounts: string[] | undefined;
  let probed: Promise<SandboxStatus> | undefined;

  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

  async function runIsolated(req: ScriptRequest): Promise<ScriptResult> {
    const limits = resolvedLimits(defaults, req.limits);
    let argv: string[];
    if (req.command?.length) argv = req.command;
    else if (typeof req.script === 'string' && req.script.trim())
      argv = [existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh', SCRIPT_PATH];
    else throw new Error('a script or a command is required');

    const env: Record<string, string> = { PATH, HOME: WORK_DIR, LANG: 'C.UTF-8' };
    for (const [k, v] of Object.entries(req.env ?? {})) {
      if (!ENV_NAME.test(k)) throw new Error(`environment variable name "${k}" is not valid`);
      env[k] = String(v);
    }

    // Data handed to bwrap through extra pipes (fd 3, 4, ...): the script and the files.
    const feeds: (string | Uint8Array)[] = [];
    const data: string[] = [];
    const feed = (content: string | Uint8Array) => String(3 + feeds.push(content) - 1);
    for (const [name, content] of Object.entries(req.files ?? {})) {
      data.push('--perms', '0644', '--file', feed(content), workPath(name));
    }
    if (!req.command?.length) data.push('--perms', '0555', '--ro-bind-data', feed(req.script!), SCRIPT_PATH);

    mounts ??= rootMounts(hide);
    const bwrapArgs = [
      '--unshare-user',
      '--uid',
      String(SANDBOX_UID),
      '--gid',
      String(SANDBOX_GID),
      '--disable-userns',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      '--hostname',
      'sandbox',
      '--die-with-parent',
      '--new-session',
      '--clearenv',
      ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
      ...mounts,
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--size',
      String(limits.memoryBytes),
      '--perms',
      '0700',
      '--tmpfs',
      WORK_DIR,
      ...data,
      '--chdir',
      WORK_DIR,
      '--',
      PRLIMIT,
      `--as=${limits.memoryBytes}`,
      `--nproc=${limits.maxProcesses}`,
      '--core=0',
      '--',
      ...argv,
    ];
    // As root, bwrap itself starts as the sandbox user: the script is then nobody on the host
    // too, not root mapped to nobody (which could still read root's files).
    const [file, args] = asRoot
      ? [
          SETPRIV,
          [
            '--reuid',
            String(SANDBOX_UID),
            '--regid',
            String(SANDBOX_GID),
            '--clear-groups',
            '--inh-caps=-all',
            '--bounding-set=-all',
            '--',
            bwrap,
            ...bwrapArgs,
          ],
        ]
      : [bwrap, bwrapArgs];

    const started = performance.now();
    return new Promise<ScriptResult>((resolveRun, rejectRun) => {
      const stdio: StdioOptions = [
        req.stdin !== undefined ? 'pipe' : 'ignore',
        'pipe',
        'pipe',
        ...feeds.map(() => 'pipe' as const),
      ];
      // bwrap gets an empty environment: nothing of the server's reaches even its own /proc entry.
      const child = spawn(file, args, { env: {}, stdio, detached: true });
      const out = {
        stdout: [] as Buffer[],
        stderr: [] as Buffer[],
        stdoutBytes: 0,
        stderrBytes: 0,
        stdoutTruncated: false,
        stderrTruncated: false,
      };
      const collect = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
        const room = limits.maxOutputBytes - out[`${stream}Bytes`];
        if (d.length > room) out[`${stream}Truncated`] = true;
        if (room <= 0) return; // keep reading so the script does not block on a full pipe
        const part = d.length > room ? d.subarray(0, room) : d;
        out[stream].push(part);
        out[`${stream}Bytes`] += part.length;
      };
      child.stdout!.on('data', collect('stdout'));
      child.stderr!.on('data', collect('stderr'));
      for (let i = 0; i < feeds.length; i++) {
        const w = child.stdio[3 + i] as Writable;
        w.on('error', () => {}); // bwrap failed early; its exit says why
        w.end(feeds[i]);
      }
      if (req.stdin !== undefined) {
        child.stdin!.on('error', () => {});
        child.stdin!.end(req.stdin);
      }

      let timedOut = false;
      const kill = () => {
        timedOut = true;
        // bwrap's own process: its death takes the sandbox's PID namespace, and with it every
        // process the script started, down (--die-with-parent, then the namespace's init).
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const timer = setTimeout(kill, limits.timeoutMs);
      if (req.signal?.aborted) kill();
      else req.signal?.addEventListener('abort', kill, { once: true });
      const done = () => {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', kill);
      };
      child.on('error', (e) => {
        done();
        rejectRun(new Error(`cannot start ${file}: ${e.message}`));
      });
      child.on('close', (code, sig) => {
        done();
        resolveRun({
          exitCode: code ?? 128 + signalNumber(sig),
          stdout: Buffer.concat(out.stdout).toString('utf8'),
          stderr: Buffer.concat(out.stderr).toString('utf8'),
          stdoutTruncated: out.stdoutTruncated,
          stderrTruncated: out.stderrTruncated,
          durationMs: Math.round(performance.now() - started),
          timedOut,
        });
      });
    });
  }

  async function probeOnce(): Promise<SandboxStatus> {
    if (!existsSync(bwrap)) return { available: false, reason: `${bwrap} not found` };
    if (!existsSync(PRLIMIT)) return { available: false, reason: `${PRLIMIT} (util-linux) not found` };
    if (asRoot && !existsSync(SETPRIV))
      return { available: false, reason: `${SETPRIV} (util-linux) not found; it drops root before bwrap starts` };
    try {
      // Not only "it ran": the script must be the sandbox user, in a PID namespace of its own
      // (a low pid) that does not show this process.
      const r = await runIsolated({
        script: `id -u; echo $$; test -e /proc/${process.pid} && echo "server visible"; true`,
        limits: { timeoutMs: 10_000 },
      });
      const [uid, pid, visible] = r.stdout.trim().split('\n');
      if (r.exitCode === 0 && uid === String(SANDBOX_UID) && Number(pid) < 10 && !visible) return { available: true };
      if (r.exitCode === 0)
        return { available: false, reason: `${bwrap} ran the probe without isolating it (uid ${uid}, pid ${pid})` };
      const said = (r.stderr.trim() || r.stdout.trim()).split('\n').slice(-3).join(' ');
      return {
        available: false,
        reason: `${bwrap} could not create the sandbox${r.timedOut ? ' (timed out)' : ''}: ${said || `exit code ${r.exitCode}`}`,
      };
    } catch (err) {
      return { available: false, reason: (err as Error).message };
    }
  }

  const sandbox: Sandbox = {
    probe() {
      probed ??= probeOnce().then((s) => {
        if (!s.available) probed = undefined; // installed later: the next run probes again
        return s;
      });
      return probed;
    },
    async run(req) {
      const status = await sandbox.probe();
      if (!status.available) throw new SandboxUnavailableError(status.reason ?? 'unknown');
      return runIsolated(req);
    },
  };
  return sandbox;
}

function signalNumber(sig: NodeJS.Signals | null): number {
  return (sig && constants.signals[sig]) || 0;
}
