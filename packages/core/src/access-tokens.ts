/**
 * Personal access tokens (server: auth/tokens.ts; web: the profile page and the users page).
 * The create body is validated by this schema on the server, so both sides refuse alike.
 */
import { z } from 'zod';
import { ROLES, type Role } from './constants.ts';
import { parseDuration } from './relative-time.ts';

/** The longest lifetime a token may be given; longer asks are refused rather than clamped. */
export const ACCESS_TOKEN_MAX_LIFETIME_MS = 3650 * 86_400_000; // 10 years (3650d)

export const ACCESS_TOKEN_MESSAGES = {
  name: 'name is required (at most 200 characters)',
  expiresIn: "expires_in must be a number of seconds or a duration such as '30d'",
  expiresInMax: 'expires_in must be at most 10 years (3650d)',
  role: `role must be one of ${ROLES.join(', ')}`,
} as const;

/** expires_in as milliseconds: seconds as a number or digit string, or a duration such as '30d'. */
function lifetimeMs(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v * 1000 : undefined;
  if (typeof v === 'string') return /^\d+$/.test(v) ? Number(v) * 1000 : parseDuration(v);
  return undefined;
}

/** POST /api/auth/tokens. expires_in absent, null or '' means no expiry; role absent means the owner's roles. */
export const createAccessTokenSchema = z.object({
  name: z
    .string({ error: ACCESS_TOKEN_MESSAGES.name })
    .trim()
    .min(1, ACCESS_TOKEN_MESSAGES.name)
    .max(200, ACCESS_TOKEN_MESSAGES.name),
  expires_in: z
    .unknown()
    .optional()
    .transform((v, ctx): number | null => {
      if (v === undefined || v === null || v === '') return null;
      const ms = lifetimeMs(v);
      if (ms === undefined || !(ms > 0)) {
        ctx.addIssue({ code: 'custom', message: ACCESS_TOKEN_MESSAGES.expiresIn });
        return z.NEVER;
      }
      if (ms > ACCESS_TOKEN_MAX_LIFETIME_MS) {
        ctx.addIssue({ code: 'custom', message: ACCESS_TOKEN_MESSAGES.expiresInMax });
        return z.NEVER;
      }
      return ms;
    }),
  role: z
    .enum(ROLES, { error: ACCESS_TOKEN_MESSAGES.role })
    .nullish()
    .transform((r): Role | null => r ?? null),
});
export type CreateAccessTokenInput = z.input<typeof createAccessTokenSchema>;

/** A token as listed (never its value). role null: it acts with its owner's current roles. */
export interface AccessTokenRecord {
  id: string;
  name: string;
  role: Role | null;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}
