import { createContext, useContext, type ReactNode } from 'react';

/**
 * Which in-app paths lead to a screen. The app's route table is the one place that knows
 * (app/routes.ts); it is handed down here so features and shared components can leave out a link
 * to a screen that does not exist yet (the bell to /notifications, an agent's
 * /settings/agents?id=..., a component's /topology/{id}) instead of linking to "Page not found".
 */
type IsKnown = (pathname: string) => boolean;

// Outside the app (component tests of one screen) every path counts as a screen.
const KnownRoutesContext = createContext<IsKnown>(() => true);

export function KnownRoutesProvider({ isKnown, children }: { isKnown: IsKnown; children: ReactNode }) {
  return <KnownRoutesContext.Provider value={isKnown}>{children}</KnownRoutesContext.Provider>;
}

/** `linkTo(path)`: the path when it leads to a screen (query and hash ignored), else undefined. */
export function useLinkTo(): (path: string | undefined) => string | undefined {
  const isKnown = useContext(KnownRoutesContext);
  return (path) => (path && isKnown(path.split(/[?#]/, 1)[0]) ? path : undefined);
}
