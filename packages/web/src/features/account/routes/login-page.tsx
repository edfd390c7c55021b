import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { logout } from '../api/logout.ts';
import { hasGroup, inputNode } from '../api/flow-nodes.ts';
import { isFlow, type UiGroup } from '../api/flow-types.ts';
import { redirectOf } from '../api/redirects.ts';
import { useSelfServiceFlow } from '../api/use-flow.ts';
import { AuthCard, FlowPending, linkClass } from '../components/auth-card.tsx';
import { FlowForm } from '../components/flow-form.tsx';
import { FlowMessages, noticeText } from '../components/flow-messages.tsx';
import { toastError } from '#web/lib/toast.ts';

export const LOGIN_TITLES = {
  signIn: 'Sign in',
  refresh: 'Confirm Action',
  secondFactor: 'Two-Factor Authentication',
} as const;

/** The second factors an aal2 login offers, each its own small form. */
const SECOND_FACTORS: UiGroup[] = ['totp', 'lookup_secret', 'webauthn'];

/**
 * /login (seed 002 section 2.19). Query: flow, return_to, aal (aal2: the second factor),
 * refresh (true: confirm the password before a sensitive change); username and password in the
 * query sign in at once.
 */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const { flow, failure, notice, submit, go } = useSelfServiceFlow('login');

  // Credentials in the address are used once and taken out of it straight away, so they
  // don't stay in the history or get sent on as a referrer.
  const [autoLogin] = useState(() => {
    const username = params.get('username');
    const password = params.get('password');
    return username && password ? { username, password } : null;
  });
  useEffect(() => {
    if (!params.has('username') && !params.has('password')) return;
    const next = new URLSearchParams(params);
    next.delete('username');
    next.delete('password');
    setParams(next, { replace: true });
  }, [params, setParams]);

  const aal2 = flow ? flow.requested_aal === 'aal2' : params.get('aal') === 'aal2';
  const refresh = flow ? !!flow.refresh : params.get('refresh') === 'true';
  const title = aal2 ? LOGIN_TITLES.secondFactor : refresh ? LOGIN_TITLES.refresh : LOGIN_TITLES.signIn;

  const onSubmit = useCallback(
    async (body: Record<string, unknown>) => {
      const res = await submit(body);
      // signed in: where the server says (the second factor, return_to or home)
      if (res && !isFlow(res)) go(redirectOf(res.continue_with) ?? flow?.return_to ?? '/');
    },
    [submit, go, flow?.return_to],
  );

  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (!autoLogin || !flow || autoSubmitted.current || flow.requested_aal === 'aal2') return;
    autoSubmitted.current = true;
    void onSubmit({
      csrf_token: inputNode(flow, 'csrf_token')?.attributes.value,
      method: 'password',
      identifier: autoLogin.username,
      password: autoLogin.password,
    });
  }, [autoLogin, flow, onSubmit]);

  const signOut = async () => {
    try {
      await logout();
    } catch (err) {
      toastError(err);
      return;
    }
    window.location.assign('/login');
  };

  const footer = aal2 ? (
    <button type="button" className={linkClass} onClick={() => void signOut()}>
      Sign out
    </button>
  ) : (
    <>
      <Link to="/recovery" className={linkClass}>
        Reset password
      </Link>
      {refresh && (
        <Link to={flow?.return_to ?? '/'} className={linkClass}>
          Cancel
        </Link>
      )}
    </>
  );

  return (
    <AuthCard title={title} footer={footer}>
      <FlowMessages messages={noticeText(notice)} className="mb-4" />
      {!flow ? (
        <FlowPending failure={failure} />
      ) : (
        <>
          <FlowMessages messages={flow.ui.messages} className="mb-4" />
          {aal2 ? (
            SECOND_FACTORS.filter((g) => hasGroup(flow, g)).map((g, i) => (
              <Fragment key={g}>
                {i > 0 && (
                  <div className="my-5 flex items-center gap-3 text-xs text-gray-400 uppercase">
                    <span className="h-px flex-1 bg-gray-200" /> or <span className="h-px flex-1 bg-gray-200" />
                  </div>
                )}
                <FlowForm flow={flow} groups={[g]} onSubmit={onSubmit} autoFocus={i === 0} data-testid={`login-${g}`} />
              </Fragment>
            ))
          ) : (
            <FlowForm flow={flow} groups={['password']} onSubmit={onSubmit} autoFocus data-testid="login-password" />
          )}
        </>
      )}
    </AuthCard>
  );
}
