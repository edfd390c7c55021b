/**
 * What the calls of the self-service flows share (seed 002 section 7.9: create-flow, get-flow,
 * submit-flow, logout). They never trigger the app-wide 401 redirect: a 401 there is a flow error
 * (session_inactive) the account pages handle themselves.
 */
export interface FlowParams {
  return_to?: string;
  aal?: string;
  refresh?: string;
}

export function query(params: Record<string, string | undefined>): string {
  const qs = new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  ).toString();
  return qs ? `?${qs}` : '';
}
