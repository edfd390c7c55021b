import { Outlet, useNavigation } from 'react-router';
import { TooltipProvider } from '#web/components/ui/tooltip.tsx';
import { PageTitleProvider } from '#web/components/ui/page-title.tsx';
import { Sidebar } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';
import { useSidebarState } from './use-sidebar-state.ts';

/** The console frame: sidebar, top bar and the routed screen. */
export function Shell() {
  const { collapsed, toggle } = useSidebarState();
  const navigation = useNavigation();
  return (
    <TooltipProvider delayDuration={300}>
      <PageTitleProvider>
        <div className="flex h-screen overflow-hidden bg-gray-50 text-gray-900">
          <Sidebar collapsed={collapsed} onToggle={toggle} />
          <div className="relative flex min-w-0 flex-1 flex-col">
            <TopBar />
            {navigation.state === 'loading' && (
              <div
                className="absolute inset-x-0 top-14 z-20 h-0.5 animate-pulse bg-blue-500"
                role="progressbar"
                aria-label="Loading page"
              />
            )}
            <main className="min-h-0 flex-1 overflow-auto">
              <Outlet />
            </main>
          </div>
        </div>
      </PageTitleProvider>
    </TooltipProvider>
  );
}
