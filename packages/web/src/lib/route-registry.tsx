import { createContext, useContext, type ReactNode } from 'react';

/**
 * Whether a path leads to a screen of this build. The app answers from its route table
 * (app/routes.ts isRegisteredPath) through RouteRegistryProvider; features and shared components
 * ask here, so a link to a screen that does not exist yet (a catalog item, a topology component)
 * reads as plain text, and turns into a link by itself once that screen's route is added.
 * Without a provider no path is known: nothing links to "Page not found".
 */
export type RouteExists = (pathname: string) => boolean;

const RouteRegistryContext = createContext<RouteExists>(() => false);

export function RouteRegistryProvider({ exists, children }: { exists: RouteExists; children: ReactNode }) {
  return <RouteRegistryContext.Provider value={exists}>{children}</RouteRegistryContext.Provider>;
}

/** Whether `to` (a path, with or without query and hash) opens a screen that exists. */
export function useRouteExists(): (to: string) => boolean {
  const exists = useContext(RouteRegistryContext);
  return (to) => exists(to.split(/[?#]/)[0]);
}
