import { z } from 'zod';
import { ROLES } from './constants.ts';

/**
 * The user form of the users page (seed 002 section 5), shared by the web form and the server's
 * invite/update routes so both refuse the same input with the same words.
 */
export const USER_FORM_MESSAGES = {
  firstName: 'Please provide valid first name',
  lastName: 'Please provide valid last name',
  email: 'Please provide valid email',
  emailFormat: 'Entered value does not match email format',
  role: 'Please select any role',
  active: 'active must be true or false',
} as const;

/** "a simple {email} pattern": something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One message at a time: an empty field is 'missing', not 'badly formatted'. */
const email = z
  .string({ error: USER_FORM_MESSAGES.email })
  .trim()
  .superRefine((v, ctx) => {
    if (!v) ctx.addIssue({ code: 'custom', message: USER_FORM_MESSAGES.email });
    else if (!EMAIL_PATTERN.test(v)) ctx.addIssue({ code: 'custom', message: USER_FORM_MESSAGES.emailFormat });
  });

/** One role per person through this form (the page shows and edits one). */
const role = z
  .string({ error: USER_FORM_MESSAGES.role })
  .refine((r) => (ROLES as readonly string[]).includes(r), USER_FORM_MESSAGES.role);

/** POST /api/auth/invite_user */
export const inviteUserSchema = z.object({
  firstName: z.string({ error: USER_FORM_MESSAGES.firstName }).trim().min(1, USER_FORM_MESSAGES.firstName),
  lastName: z.string({ error: USER_FORM_MESSAGES.lastName }).trim().min(1, USER_FORM_MESSAGES.lastName),
  email,
  role,
});
export type InviteUserInput = z.input<typeof inviteUserSchema>;

/** The edit form: the invite fields plus whether the account may sign in. */
export const editUserSchema = inviteUserSchema.extend({ active: z.boolean({ error: USER_FORM_MESSAGES.active }) });
export type EditUserInput = z.input<typeof editUserSchema>;

/** GET /api/auth/users rows (auth/README.md "A user is ...") */
export interface UserRecord {
  id: string;
  name: { first: string; last: string };
  email: string | null;
  avatar: string | null;
  roles: string[];
  /** the displayed role: the highest of admin, editor, viewer */
  role: 'admin' | 'editor' | 'viewer';
  state: string;
  active: boolean;
  verified: boolean;
  last_login: string | null;
  created_at: string | null;
  updated_at: string | null;
  state_changed_at: string | null;
}
