/**
 * The shapes the identity service answers with (packages/server/src/auth/README.md, "Flows").
 * A flow carries its own form description (`ui.nodes`), so the pages render what the server
 * describes and validation messages always come from the server.
 */

export type FlowType = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

export type UiGroup = 'default' | 'password' | 'code' | 'profile' | 'totp' | 'lookup_secret' | 'webauthn' | 'oidc';

export interface UiText {
  id: number;
  text: string;
  type: 'info' | 'error' | 'success';
  context?: Record<string, unknown>;
}

interface UiInputAttributes {
  node_type: 'input';
  name: string;
  type: string;
  value?: string;
  required?: boolean;
  disabled?: boolean;
  autocomplete?: string;
}

interface UiTextAttributes {
  node_type: 'text';
  id: string;
  text: UiText;
}

export interface UiNode {
  type: 'input' | 'text';
  group: UiGroup;
  attributes: UiInputAttributes | UiTextAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

export interface InputNode extends UiNode {
  attributes: UiInputAttributes;
}

export interface TextNode extends UiNode {
  attributes: UiTextAttributes;
}

export interface Flow {
  id: string;
  type: string;
  state: string;
  expires_at: string;
  issued_at: string;
  request_url?: string | null;
  return_to?: string;
  /** login only */
  refresh?: boolean;
  requested_aal?: 'aal1' | 'aal2';
  /** settings only */
  identity?: { id: string; traits: { email: string; name: { first: string; last: string } } } | null;
  ui: { action: string; method: string; messages: UiText[]; nodes: UiNode[] };
}

export interface ContinueWith {
  action: 'redirect_browser_to' | 'show_verification_ui' | 'show_settings_ui' | string;
  redirect_browser_to?: string;
  flow?: { id: string; url?: string };
}

/** What a successful login or registration answers instead of a flow. */
export interface FlowResult {
  session?: unknown;
  identity?: unknown;
  continue_with?: ContinueWith[];
}

/** A flow error (everything but form validation), as stored and answered by the server. */
export interface FlowErrorBody {
  id?: string;
  error: { id: string; code: number; status: string; message: string; reason?: string };
  message: string;
  redirect_browser_to?: string;
  use_flow_id?: string;
}

export const isFlow = (v: unknown): v is Flow =>
  !!v && typeof v === 'object' && 'ui' in v && 'id' in v && Array.isArray((v as Flow).ui?.nodes);

export const isFlowErrorBody = (v: unknown): v is FlowErrorBody =>
  !!v &&
  typeof v === 'object' &&
  'error' in v &&
  !!(v as FlowErrorBody).error &&
  typeof (v as FlowErrorBody).error.id === 'string';

export const isInputNode = (n: UiNode): n is InputNode => n.attributes.node_type === 'input';
export const isTextNode = (n: UiNode): n is TextNode => n.attributes.node_type === 'text';
