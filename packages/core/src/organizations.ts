/**
 * Hosted mode's organisations (issue 21): the control-plane routes under /api/organizations and
 * what the web app's organisation picker and switcher read. Each organisation's data lives in a
 * schema of its own, served by its own backend under /org/{slug}.
 */
import { z } from 'zod';
import { ROLES } from './constants.ts';

/** A slug names the organisation in URLs (/org/{slug}) and in its schema's name: DNS-label like. */
export const ORGANIZATION_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const ORGANIZATION_SLUG_MESSAGE =
  'slug must be 1-40 lowercase letters, digits or hyphens, starting and ending with a letter or digit';

export const organizationSlugField = z.string().regex(ORGANIZATION_SLUG, ORGANIZATION_SLUG_MESSAGE);

/** POST /api/organizations */
export const createOrganizationSchema = z.object({
  name: z.string().trim().min(1, 'name is required').max(100, 'name must be at most 100 characters'),
  /** derived from the name when omitted */
  slug: organizationSlugField.optional(),
});
export type CreateOrganization = z.infer<typeof createOrganizationSchema>;

/** POST /api/organizations/{slug}/invites */
export const inviteMemberSchema = z.object({
  email: z.email('email must be an email address').max(320),
  role: z.enum(ROLES).default('viewer'),
});
export type InviteMember = z.infer<typeof inviteMemberSchema>;

export const organizationStatusSchema = z.enum(['provisioning', 'ready', 'failed']);
export type OrganizationStatus = z.infer<typeof organizationStatusSchema>;

/** One organisation as the caller sees it in GET /api/organizations. */
export const organizationSchema = z.object({
  slug: z.string(),
  name: z.string(),
  status: organizationStatusSchema,
  /** the caller's role in it; null for an organisation the caller is only invited to */
  role: z.string().nullable(),
  /** set on an invitation the caller has not accepted yet */
  invited: z.boolean(),
  created_at: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;
export const organizationsSchema = z.array(organizationSchema);

/**
 * POST /api/organizations/{slug}/switch. While the organisation is provisioned there is no backend
 * yet: backend_url and token are null and the caller asks again.
 */
export const organizationSwitchSchema = z.object({
  organization: z.string(),
  status: organizationStatusSchema,
  backend_url: z.string().nullable(),
  /** a bearer token valid on that backend only */
  token: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type OrganizationSwitch = z.infer<typeof organizationSwitchSchema>;

/** One member of an organisation (GET /api/organizations/{slug}/members; admins only). */
export const organizationMemberSchema = z.object({
  person_id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  role: z.enum(ROLES),
  joined_at: z.string(),
});
export type OrganizationMember = z.infer<typeof organizationMemberSchema>;

/** An invitation nobody has accepted yet. */
export const organizationInviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  created_at: z.string(),
});
export type OrganizationInvite = z.infer<typeof organizationInviteSchema>;

export const organizationMembersSchema = z.object({
  members: z.array(organizationMemberSchema),
  invites: z.array(organizationInviteSchema),
});
export type OrganizationMembers = z.infer<typeof organizationMembersSchema>;

/**
 * POST /api/organizations/{slug}/invites answers the invitation and how its email went: 'sent'
 * through SMTP, or 'logged' where the server has no SMTP_URL (the invited person still finds it in
 * the organisation picker once signed in with that email).
 */
export const invitationSentSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  mail: z.enum(['sent', 'logged']),
});
export type InvitationSent = z.infer<typeof invitationSentSchema>;
