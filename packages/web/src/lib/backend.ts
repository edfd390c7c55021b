/**
 * Hosted mode (seed 000 section 7): once an organisation is chosen, every shared API client calls
 * that organisation's backend URL with its bearer token instead of this origin. The choice is kept
 * in localStorage and read once when the app loads; switching saves a new one and reloads the app
 * (features/organizations). Without one, calls go to this origin as always.
 */
const KEY = 'watchdeck.organization';

export interface OrganizationBackend {
  slug: string;
  /** the backend's base URL; /api/... is appended */
  url: string;
  token: string;
}

function read(): OrganizationBackend | null {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<OrganizationBackend>;
    return typeof v.slug === 'string' && typeof v.url === 'string' && typeof v.token === 'string'
      ? { slug: v.slug, url: v.url.replace(/\/+$/, ''), token: v.token }
      : null;
  } catch {
    return null;
  }
}

const loaded = read();

/** The organisation backend this page was loaded against, if any. */
export function currentBackend(): OrganizationBackend | null {
  return loaded;
}

export function saveBackend(backend: OrganizationBackend): void {
  localStorage.setItem(KEY, JSON.stringify(backend));
}

export function clearBackend(): void {
  localStorage.removeItem(KEY);
}

/**
 * The account itself (sign-in flows and their stored errors, profile settings, sign-out) lives on
 * this origin's backend, with its session cookie: an organisation's backend has no sign-in of its
 * own and refuses those flows (server auth/bearer-only-provider.ts).
 */
const ROOT_ONLY = /^\/api\/auth\/(self-service\/|errors\/|logout$)/;

/** The URL and headers a call to `path` (/api/...) is sent with. */
export function routed(path: string): { url: string; headers: Record<string, string> } {
  if (!loaded || !path.startsWith('/api/') || ROOT_ONLY.test(path)) return { url: path, headers: {} };
  return { url: loaded.url + path, headers: { Authorization: `Bearer ${loaded.token}` } };
}
