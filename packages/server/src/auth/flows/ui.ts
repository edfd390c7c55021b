/**
 * The form description a flow carries (Kratos-like `ui`): the web app renders nodes it knows and
 * shows their messages, so validation lives on the server only. Message ids are stable numbers
 * (1xxxxxx info, 4xxxxxx error); texts are what the user reads.
 */

export interface UiText {
  id: number;
  text: string;
  type: 'info' | 'error' | 'success';
  context?: Record<string, unknown>;
}

export type UiGroup = 'default' | 'password' | 'code' | 'profile' | 'totp' | 'lookup_secret' | 'webauthn';

export interface UiNode {
  type: 'input' | 'text';
  group: UiGroup;
  attributes:
    | {
        node_type: 'input';
        name: string;
        type: string;
        value?: string;
        required?: boolean;
        disabled?: boolean;
        autocomplete?: string;
      }
    | { node_type: 'text'; id: string; text: UiText };
  messages: UiText[];
  meta: { label?: UiText };
}

export const MSG = {
  invalidCredentials: {
    id: 4000006,
    type: 'error',
    text: 'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
  },
  required: (field: string): UiText => ({
    id: 4000002,
    type: 'error',
    text: `Property ${field} is missing.`,
    context: { property: field },
  }),
  invalidEmail: { id: 4000001, type: 'error', text: 'Please provide a valid email address.' },
  passwordPolicy: (reason: string): UiText => ({ id: 4000005, type: 'error', text: reason }),
  duplicateAccount: {
    id: 4000007,
    type: 'error',
    text: 'An account with the same identifier (email, phone, username, ...) exists already.',
  },
  invalidTotp: { id: 4000008, type: 'error', text: 'The provided authentication code is invalid, please try again.' },
  /** the stored TOTP secret cannot be decrypted with the server's key (an operator's problem) */
  totpUnavailable: {
    id: 5000001,
    type: 'error',
    text: 'The authenticator app cannot be checked right now. Use a backup recovery code or a security key, or ask an administrator.',
  },
  invalidLookup: { id: 4000016, type: 'error', text: 'The backup recovery code is not valid.' },
  usedLookup: { id: 4000012, type: 'error', text: 'This backup recovery code has already been used.' },
  webauthnFailed: { id: 4000015, type: 'error', text: 'The security key could not be verified. Please try again.' },
  noStrategy: {
    id: 4010002,
    type: 'error',
    text: 'Could not find a strategy to log you in with. Did you fill out the form correctly?',
  },
  noSettingsStrategy: { id: 4050001, type: 'error', text: 'Could not find a strategy to update your settings with.' },
  secondFactor: { id: 1010004, type: 'info', text: 'Please complete the second authentication challenge.' },
  confirmAction: { id: 1010003, type: 'info', text: 'Please confirm this action by verifying that it is you.' },
  recoverySent: {
    id: 1060003,
    type: 'info',
    text: 'An email containing a recovery code has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
  },
  recoveryInvalid: {
    id: 4060006,
    type: 'error',
    text: 'The recovery code is invalid or has already been used. Please try again.',
  },
  verificationSent: {
    id: 1080003,
    type: 'info',
    text: 'An email containing a verification code has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
  },
  verificationInvalid: {
    id: 4070006,
    type: 'error',
    text: 'The verification code is invalid or has already been used. Please try again.',
  },
  verified: { id: 1080002, type: 'success', text: 'You successfully verified your email address.' },
  settingsSaved: { id: 1050001, type: 'success', text: 'Your changes have been saved!' },
  lookupCodesShown: {
    id: 1050010,
    type: 'info',
    text: 'These are your back up recovery codes. Please keep them in a safe place! Confirm to activate them.',
  },
} satisfies Record<string, UiText | ((...args: string[]) => UiText)>;

export function input(
  group: UiGroup,
  name: string,
  type: string,
  opts: { value?: string; required?: boolean; disabled?: boolean; label?: string; autocomplete?: string } = {},
): UiNode {
  return {
    type: 'input',
    group,
    attributes: {
      node_type: 'input',
      name,
      type,
      ...(opts.value !== undefined ? { value: opts.value } : {}),
      ...(opts.required ? { required: true } : {}),
      ...(opts.disabled ? { disabled: true } : {}),
      ...(opts.autocomplete ? { autocomplete: opts.autocomplete } : {}),
    },
    messages: [],
    meta: opts.label ? { label: { id: 1070000, type: 'info', text: opts.label } } : {},
  };
}

export function submit(group: UiGroup, label: string, name = 'method', value: string = group): UiNode {
  return input(group, name, 'submit', { value, label });
}

export function text(
  group: UiGroup,
  id: string,
  body: string,
  label?: string,
  context?: Record<string, unknown>,
): UiNode {
  return {
    type: 'text',
    group,
    attributes: {
      node_type: 'text',
      id,
      text: { id: 1050000, type: 'info', text: body, ...(context ? { context } : {}) },
    },
    messages: [],
    meta: label ? { label: { id: 1070000, type: 'info', text: label } } : {},
  };
}

export function csrfNode(token: string): UiNode {
  return input('default', 'csrf_token', 'hidden', { value: token, required: true });
}
