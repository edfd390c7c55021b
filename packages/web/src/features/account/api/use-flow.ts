import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { createFlow } from './create-flow.ts';
import { getFlow } from './get-flow.ts';
import { submitFlow } from './submit-flow.ts';
import { decideFlowError } from './flow-errors.ts';
import { isFlow, type Flow, type FlowResult, type FlowType } from './flow-types.ts';
import { resolveRedirect } from './redirects.ts';

/** Account pages outside the shell: moving between them needs no reload. */
const ACCOUNT_PAGES = ['/login', '/registration', '/recovery', '/verification'];

/** A restart that keeps failing the same way is a loop, not a recovery. */
const MAX_RESTARTS = 3;

export interface SelfServiceFlow {
  flow: Flow | null;
  /** a failure no restart can fix (network down, registration disabled, ...) */
  failure: string | null;
  /** why the flow was started over (expired, CSRF, forbidden return_to) */
  notice: string | null;
  /** submits one form; resolves to the answer, or undefined when it failed (already handled) */
  submit: (body: Record<string, unknown>) => Promise<Flow | FlowResult | undefined>;
  /** follows a redirect the server asked for */
  go: (target: string) => void;
}

/**
 * One self-service flow behind a page: `?flow=<id>` fetches it, no id starts one (with the page's
 * return_to, aal and refresh parameters) and puts its id in the address, so a reload keeps the
 * form. Flow errors lead where seed 002 section 4 says (see flow-errors.ts).
 */
export function useSelfServiceFlow(type: FlowType): SelfServiceFlow {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  // a navigation on its way (a link to another account page whose code is still loading)
  const navigation = useNavigation();
  const flowId = searchParams.get('flow');
  const [flow, setFlow] = useState<Flow | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // bumped to start a flow again when the address itself does not change
  const [attempt, setAttempt] = useState(0);
  const restarts = useRef(0);
  const loaded = useRef<string | null>(null);

  const go = useCallback(
    (target: string) => {
      const r = resolveRedirect(target);
      const pathname = r.path.split(/[?#]/)[0];
      // Leaving the account pages after signing in (or out) loads the app afresh, so nothing
      // cached from before (who the user is, their permissions) survives.
      if (r.external || !ACCOUNT_PAGES.includes(pathname)) window.location.assign(r.path);
      else navigate(r.path, { replace: true });
    },
    [navigate],
  );

  const handleError = useCallback(
    (err: unknown) => {
      const action = decideFlowError(err, type, `${location.pathname}${location.search}`);
      switch (action.kind) {
        case 'show':
          setFlow(action.flow);
          return;
        case 'redirect':
          go(action.to);
          return;
        case 'fail':
          setFailure(action.message);
          return;
        case 'restart': {
          restarts.current += 1;
          if (restarts.current > MAX_RESTARTS) {
            setFailure(action.message ?? 'The form could not be started. Please reload the page.');
            return;
          }
          if (action.message) setNotice(action.message);
          const next = new URLSearchParams();
          if (action.useFlowId) next.set('flow', action.useFlowId);
          else {
            const returnTo = flow?.return_to ?? searchParams.get('return_to');
            if (returnTo && !action.dropReturnTo) next.set('return_to', returnTo);
            for (const k of ['aal', 'refresh']) {
              const v = searchParams.get(k);
              if (v) next.set(k, v);
            }
          }
          loaded.current = null;
          setFlow(null);
          setSearchParams(next, { replace: true });
          setAttempt((n) => n + 1);
          return;
        }
      }
    },
    [type, location.pathname, location.search, go, flow?.return_to, searchParams, setSearchParams],
  );

  // What the address asks for: the flow it names, or a new one with the page's parameters.
  const onLoaded = useEffectEvent((f: Flow) => {
    loaded.current = f.id;
    restarts.current = 0;
    setFlow(f);
    setFailure(null);
    // Putting the id in the address is a navigation too, and a newer navigation cancels one in
    // progress: a flow that arrives after the user clicked away would pull them back here.
    if (f.id !== flowId && navigation.state === 'idle')
      setSearchParams(new URLSearchParams({ flow: f.id }), { replace: true });
  });
  const onFailed = useEffectEvent((err: unknown) => handleError(err));
  const creationParams = useEffectEvent(() => ({
    return_to: searchParams.get('return_to') ?? undefined,
    aal: searchParams.get('aal') ?? undefined,
    refresh: searchParams.get('refresh') ?? undefined,
  }));

  useEffect(() => {
    if (flowId && loaded.current === flowId) return; // the flow we just created, already shown
    const controller = new AbortController();
    const { signal } = controller;
    (flowId ? getFlow(type, flowId, signal) : createFlow(type, creationParams(), signal)).then(
      (f) => !signal.aborted && onLoaded(f),
      (err: unknown) => !signal.aborted && onFailed(err),
    );
    return () => controller.abort();
  }, [type, flowId, attempt]);

  const submit = useCallback(
    async (body: Record<string, unknown>) => {
      if (!flow) return undefined;
      setNotice(null);
      try {
        const res = await submitFlow(type, flow.id, body);
        restarts.current = 0;
        if (isFlow(res)) setFlow(res);
        return res;
      } catch (err) {
        handleError(err);
        return undefined;
      }
    },
    [flow, type, handleError],
  );

  return { flow, failure, notice, submit, go };
}
