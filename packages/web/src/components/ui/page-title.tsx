import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '#web/lib/cn.ts';

interface PageTitleSlot {
  target: HTMLElement | null;
  setTarget: (el: HTMLElement | null) => void;
}

const PageTitleContext = createContext<PageTitleSlot | null>(null);

/** Holds the place in the top bar where pages put their title or breadcrumb. */
export function PageTitleProvider({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<HTMLElement | null>(null);
  return <PageTitleContext.Provider value={{ target, setTarget }}>{children}</PageTitleContext.Provider>;
}

/** Where page titles appear (the shell's top bar). Shows `fallback` while no page sets one. */
export function PageTitleOutlet({ fallback, className }: { fallback?: ReactNode; className?: string }) {
  const ctx = useContext(PageTitleContext);
  return (
    <div className={cn('flex min-w-0 items-center', className)}>
      <div ref={ctx?.setTarget} className="peer flex min-w-0 items-center gap-2" />
      <div className="hidden min-w-0 items-center gap-2 peer-empty:flex">{fallback}</div>
    </div>
  );
}

/**
 * A page's title or breadcrumb, shown in the top bar; `documentTitle` also names the browser tab.
 * Outside the shell (no outlet) it renders in place.
 */
export function PageTitle({ children, documentTitle }: { children: ReactNode; documentTitle?: string }) {
  const ctx = useContext(PageTitleContext);
  useEffect(() => {
    if (!documentTitle) return;
    const previous = document.title;
    document.title = `${documentTitle} · Watchdeck`;
    return () => {
      document.title = previous;
    };
  }, [documentTitle]);
  if (!ctx) return <>{children}</>;
  return ctx.target ? createPortal(children, ctx.target) : null;
}
