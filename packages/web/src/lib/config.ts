/** Where the help menu and the kubeconfig modal's "Learn more" point. Set VITE_DOCS_URL at build time. */
export const DOCS_URL: string =
  (import.meta.env.VITE_DOCS_URL as string | undefined) || 'https://github.com/watchdeck/watchdeck#readme';
