// The user form's rules (seed 002 section 5): the web form and the server both use them.
import { describe, expect, it } from 'vitest';
import { editUserSchema, inviteUserSchema, USER_FORM_MESSAGES } from '../src/user-form.ts';

const messages = (input: unknown) => {
  const r = inviteUserSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('user form', () => {
  it('gives each missing field its own message', () => {
    expect(messages({ firstName: '', lastName: ' ', email: '', role: '' })).toEqual({
      firstName: 'Please provide valid first name',
      lastName: 'Please provide valid last name',
      email: 'Please provide valid email',
      role: 'Please select any role',
    });
  });

  it('checks the email pattern and the role list', () => {
    for (const bad of ['nope', 'a@b', 'a b@c.de', '@c.de'])
      expect(messages({ firstName: 'A', lastName: 'B', email: bad, role: 'viewer' }).email, bad).toBe(
        USER_FORM_MESSAGES.emailFormat,
      );
    expect(messages({ firstName: 'A', lastName: 'B', email: 'a@b.co', role: 'boss' })).toEqual({
      role: USER_FORM_MESSAGES.role,
    });
  });

  it('accepts a good invitation, trimmed, with every role of the matrix', () => {
    for (const role of ['admin', 'editor', 'commander', 'responder', 'viewer']) {
      expect(inviteUserSchema.parse({ firstName: ' Ada ', lastName: 'L', email: ' ada@example.com ', role })).toEqual({
        firstName: 'Ada',
        lastName: 'L',
        email: 'ada@example.com',
        role,
      });
    }
  });

  it('needs the active flag when editing', () => {
    const base = { firstName: 'A', lastName: 'B', email: 'a@b.co', role: 'viewer' };
    expect(editUserSchema.safeParse(base).success).toBe(false);
    expect(editUserSchema.parse({ ...base, active: false }).active).toBe(false);
  });
});
