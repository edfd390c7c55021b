// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../src/lib/http.ts';
import { decideFlowError, FLOW_ERROR_MESSAGES } from '../src/features/account/api/flow-errors.ts';
import { flatten, submissionBody } from '../src/features/account/api/flow-nodes.ts';
import { resolveRedirect } from '../src/features/account/api/redirects.ts';
import type { Flow, InputNode, UiNode } from '../src/features/account/api/flow-types.ts';
import { FlowForm } from '../src/features/account/components/flow-form.tsx';

afterEach(cleanup);

// Flows shaped like the identity service's answers (packages/server/src/auth/flows/ui.ts).
const input = (
  group: UiNode['group'],
  name: string,
  type: string,
  extra: Partial<InputNode['attributes']> = {},
  label?: string,
): UiNode => ({
  type: 'input',
  group,
  attributes: { node_type: 'input', name, type, ...extra },
  messages: [],
  meta: label ? { label: { id: 1070000, type: 'info', text: label } } : {},
});

function flowOf(nodes: UiNode[], extra: Partial<Flow> = {}): Flow {
  return {
    id: '6f1c1c7e-2f3b-4a52-9d59-0a4bbf4a1b11',
    type: 'browser',
    state: 'choose_method',
    expires_at: '',
    issued_at: '',
    ui: {
      action: '',
      method: 'POST',
      messages: [],
      nodes: [input('default', 'csrf_token', 'hidden', { value: 'tok' }), ...nodes],
    },
    ...extra,
  };
}

const httpError = (status: number, body: unknown) => new ApiError('http', 'failed', status, body);
const flowError = (status: number, id: string, extra: Record<string, unknown> = {}) =>
  httpError(status, {
    error: { id, code: status, status: '', message: (FLOW_ERROR_MESSAGES as Record<string, string>)[id] ?? '' },
    message: '',
    ...extra,
  });

describe('flow error transitions (seed 002 section 4)', () => {
  const here = '/profile-settings?flow=abc';

  it('goes to the second factor, home, the refresh login or the login as the error says', () => {
    expect(
      decideFlowError(
        flowError(403, 'session_aal2_required', {
          redirect_browser_to: '/api/auth/self-service/login/browser?aal=aal2',
        }),
        'settings',
        here,
      ),
    ).toEqual({
      kind: 'redirect',
      to: '/api/auth/self-service/login/browser?aal=aal2',
    });
    expect(decideFlowError(flowError(403, 'session_aal2_required'), 'settings', here)).toEqual({
      kind: 'redirect',
      to: `/login?aal=aal2&return_to=${encodeURIComponent(here)}`,
    });
    expect(
      decideFlowError(
        flowError(400, 'session_already_available', { redirect_browser_to: '/health' }),
        'login',
        '/login',
      ),
    ).toEqual({ kind: 'redirect', to: '/' });
    expect(decideFlowError(flowError(403, 'session_refresh_required'), 'settings', here)).toEqual({
      kind: 'redirect',
      to: `/login?refresh=true&return_to=${encodeURIComponent(here)}`,
    });
    expect(decideFlowError(flowError(401, 'session_inactive'), 'settings', here)).toEqual({
      kind: 'redirect',
      to: `/login?return_to=${encodeURIComponent(here)}`,
    });
    expect(
      decideFlowError(
        flowError(422, 'browser_location_change_required', { redirect_browser_to: '/profile-settings?flow=x' }),
        'recovery',
        '/recovery',
      ),
    ).toEqual({
      kind: 'redirect',
      to: '/profile-settings?flow=x',
    });
  });

  it('starts over on expiry (with the replacement flow), CSRF violations, identity mismatch and a forbidden return_to', () => {
    expect(
      decideFlowError(flowError(410, 'self_service_flow_expired', { use_flow_id: 'new-id' }), 'login', '/login'),
    ).toEqual({
      kind: 'restart',
      message: 'Your interaction expired, please fill out the form again.',
      useFlowId: 'new-id',
    });
    expect(decideFlowError(flowError(403, 'security_csrf_violation'), 'login', '/login')).toEqual({
      kind: 'restart',
      message: 'A security violation was detected, please fill out the form again.',
    });
    expect(decideFlowError(flowError(403, 'security_identity_mismatch'), 'settings', here)).toEqual({
      kind: 'restart',
    });
    expect(decideFlowError(flowError(400, 'self_service_flow_return_to_forbidden'), 'login', '/login')).toEqual({
      kind: 'restart',
      message: 'The return_to address is not allowed.',
      dropReturnTo: true,
    });
    // a bare 410, and a verification refused with 403, start over too
    expect(decideFlowError(httpError(410, {}), 'recovery', '/recovery').kind).toBe('restart');
    expect(decideFlowError(httpError(403, {}), 'verification', '/verification').kind).toBe('restart');
    expect(decideFlowError(httpError(403, {}), 'login', '/login').kind).toBe('fail');
  });

  it('shows the form again on 400 and reports transport failures', () => {
    const flow = flowOf([]);
    expect(decideFlowError(httpError(400, flow), 'login', '/login')).toEqual({ kind: 'show', flow });
    expect(decideFlowError(new ApiError('network', 'Network Error. Please try again.'), 'login', '/login')).toEqual({
      kind: 'fail',
      message: 'Network Error. Please try again.',
    });
    expect(
      decideFlowError(
        flowError(403, 'self_service_flow_disabled', {
          error: {
            id: 'self_service_flow_disabled',
            code: 403,
            status: '',
            message: 'This flow is disabled on this server.',
            reason: 'Registration is disabled.',
          },
        }),
        'registration',
        '/registration',
      ),
    ).toEqual({
      kind: 'fail',
      message: 'Registration is disabled.',
    });
  });
});

describe('redirects', () => {
  const origin = 'https://wd.example';
  it("maps the server's flow-start URLs to the app's pages and keeps our own paths", () => {
    expect(resolveRedirect('/api/auth/self-service/login/browser?aal=aal2&return_to=%2Fhealth', origin)).toEqual({
      path: '/login?aal=aal2&return_to=%2Fhealth',
      external: false,
    });
    expect(resolveRedirect('/api/auth/self-service/settings/browser', origin)).toEqual({
      path: '/profile-settings',
      external: false,
    });
    expect(resolveRedirect('https://wd.example/catalog?x=1', origin)).toEqual({
      path: '/catalog?x=1',
      external: false,
    });
    expect(resolveRedirect('https://elsewhere.example/', origin)).toEqual({
      path: 'https://elsewhere.example/',
      external: true,
    });
  });

  it('sends /login to the OpenID Connect provider when the server asks (AUTH=oidc), return_to kept', () => {
    const to = '/api/auth/oidc/login?return_to=%2Fincidents';
    expect(
      decideFlowError(
        flowError(422, 'browser_location_change_required', { redirect_browser_to: to }),
        'login',
        '/login?return_to=%2Fincidents',
      ),
    ).toEqual({ kind: 'redirect', to });
    // a server route, not an account page: the browser loads it (and follows its redirects)
    expect(resolveRedirect(to, origin)).toEqual({ path: to, external: false });
  });
});

describe('submissions', () => {
  it('send the values, the clicked button and its method; never the WebAuthn options', () => {
    const unlink = input('totp', 'totp_unlink', 'submit', { value: 'true' }) as InputNode;
    expect(submissionBody({ csrf_token: 't', webauthn_register_options: '{}', code: '' }, unlink)).toEqual({
      csrf_token: 't',
      method: 'totp',
      totp_unlink: 'true',
    });
    const method = input('password', 'method', 'submit', { value: 'password' }) as InputNode;
    expect(
      submissionBody(flatten({ csrf_token: 't', traits: { email: 'a@b.c', name: { first: 'A' } } }), method),
    ).toEqual({
      csrf_token: 't',
      'traits.email': 'a@b.c',
      'traits.name.first': 'A',
      method: 'password',
    });
  });
});

describe('FlowForm', () => {
  const login = flowOf([
    input('default', 'identifier', 'email', { value: 'ada@example.com', required: true }, 'Email'),
    input('password', 'password', 'password', { required: true }, 'Password'),
    input('password', 'method', 'submit', { value: 'password' }, 'Sign in'),
    input('totp', 'totp_code', 'text', {}, 'Authentication code'),
  ]);

  it('renders the groups asked for, with the values and messages the server gave', () => {
    const withError: Flow = {
      ...login,
      ui: {
        ...login.ui,
        nodes: login.ui.nodes.map((n) =>
          n.attributes.node_type === 'input' && n.attributes.name === 'password'
            ? { ...n, messages: [{ id: 4000002, type: 'error' as const, text: 'Property password is missing.' }] }
            : n,
        ),
      },
    };
    render(<FlowForm flow={withError} groups={['password']} onSubmit={async () => {}} />);
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('ada@example.com');
    expect(screen.queryByLabelText(/^Authentication code/)).toBeNull(); // another group
    expect(screen.getByRole('alert').textContent).toBe('Property password is missing.');
  });

  it('submits the CSRF token, the typed values and the method of the clicked button', async () => {
    const onSubmit = vi.fn(async () => {});
    const { container } = render(<FlowForm flow={login} groups={['password']} onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret words' } });
    fireEvent.click(within(container).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({
      csrf_token: 'tok',
      identifier: 'ada@example.com',
      password: 'secret words',
      method: 'password',
    });
  });
});
