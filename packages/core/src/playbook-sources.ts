/**
 * Playbook sources: where playbooks kept as YAML files come from (a git remote or a directory on
 * the server), synced into `playbooks` with source 'GitOps'. Only admins add, change, delete and
 * sync them: a source reads files with a connection's credentials or from the server's disk.
 * The server checks every write with `playbookSourceSchema`; the web form shows the same messages.
 */
import { z } from 'zod';
import { effectiveRoles } from './rbac.ts';

/** The `source` of a playbook written by the sync (any other than 'UI' is read-only to people). */
export const PLAYBOOK_SYNC_SOURCE = 'GitOps';

/** Files read when a source names no globs. */
export const PLAYBOOK_SOURCE_DEFAULT_PATHS = ['**/*.yaml', '**/*.yml'] as const;

export function canManagePlaybookSources(roles: readonly string[]): boolean {
  return effectiveRoles(roles).includes('admin');
}

const optionalText = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();

export const playbookSourceSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'name is required').max(100, 'name must be at most 100 characters'),
    url: optionalText.describe('a git remote: https://, ssh://, git@host:path, or a repository under an allowed root'),
    connection: optionalText.describe('a git connection: its URL (when url is empty) and credentials'),
    ref: optionalText.describe('branch, tag or commit; default the remote HEAD'),
    directory: optionalText.describe('an absolute directory under an allowed root (WATCHDECK_PLAYBOOK_ROOTS)'),
    paths: z
      .array(z.string().trim().min(1, 'paths must not hold an empty glob'))
      .max(50)
      .optional()
      .describe('globs inside the repository or directory; default **/*.yaml and **/*.yml'),
    schedule: optionalText.describe('cron or @every; empty: sync on demand only'),
  })
  .superRefine((s, ctx) => {
    const git = !!(s.url || s.connection);
    if (git === !!s.directory)
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'a git url or connection, or a directory, is required (one of them)',
      });
    if (s.url && /^[a-z][a-z0-9+.-]*:\/\/[^/@]*@/i.test(s.url) && !/^ssh:\/\/[^/:@]+@[^/@]+\//i.test(s.url))
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'url must not carry credentials: keep them in a connection',
      });
    if (s.url && /^ext::|^fd::/i.test(s.url))
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'url must be an https, http, ssh, git or file remote' });
    if (s.directory && !s.directory.startsWith('/'))
      ctx.addIssue({ code: 'custom', path: ['directory'], message: 'directory must be an absolute path' });
  });
export type PlaybookSourceInput = z.infer<typeof playbookSourceSchema>;
