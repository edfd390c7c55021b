import type { ContinueWith, FlowType } from './flow-types.ts';

/** The web app's page of each flow (the server's UI_PATHS). */
const FLOW_PAGES: Record<FlowType, string> = {
  login: '/login',
  registration: '/registration',
  recovery: '/recovery',
  verification: '/verification',
  settings: '/profile-settings',
};

const BROWSER_URL = /^\/api\/auth\/self-service\/(login|registration|recovery|verification|settings)\/browser$/;

/**
 * Where a redirect the server asked for leads. The server names flow starts as its own browser
 * URLs (/api/auth/self-service/login/browser?aal=aal2&return_to=...); in the app that is the
 * flow's page with the same parameters, which then starts the flow itself. Other addresses of
 * our origin stay paths; anything else is left to the browser.
 */
export function resolveRedirect(target: string, origin = window.location.origin): { path: string; external: boolean } {
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return { path: '/', external: false };
  }
  if (url.origin !== origin) return { path: url.toString(), external: true };
  const m = BROWSER_URL.exec(url.pathname);
  if (m) return { path: `${FLOW_PAGES[m[1] as FlowType]}${url.search}`, external: false };
  return { path: `${url.pathname}${url.search}${url.hash}`, external: false };
}

/** The redirect a finished login or registration asks for, if any. */
export function redirectOf(continueWith: ContinueWith[] | undefined): string | undefined {
  return continueWith?.find((c) => c.action === 'redirect_browser_to')?.redirect_browser_to;
}

/** The page of a follow-up flow (verification after registration, settings after recovery). */
export function followUpOf(continueWith: ContinueWith[] | undefined, action: string): string | undefined {
  const c = continueWith?.find((x) => x.action === action);
  return c?.flow?.url ?? undefined;
}
