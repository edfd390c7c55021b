/** Where the help menu and the kubeconfig modal's "Learn more" point. Set VITE_DOCS_URL at build time. */
export const DOCS_URL: string =
  (import.meta.env.VITE_DOCS_URL as string | undefined) || 'https://github.com/watchdeck/watchdeck#readme';

/** The docs' "Resources as code" section: kubectl with the downloaded kubeconfig, a Git layout. */
export const KUBECONFIG_DOCS_URL = `${DOCS_URL.replace(/#.*$/, '')}#resources-as-code`;
