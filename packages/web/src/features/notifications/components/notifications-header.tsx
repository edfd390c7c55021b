import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { RotateCw } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { cn } from '#web/lib/cn.ts';

const TABS = [
  { to: '/notifications', label: 'Notifications', end: true },
  { to: '/notifications/rules', label: 'Rules', end: true },
  { to: '/notifications/silences', label: 'Silences', end: false },
] as const;

/**
 * The top bar of the three notification screens (seed 002 section 2.15): the breadcrumb, the
 * links between send history, rules and silences, refresh, and the screen's own action.
 */
export function NotificationsHeader({
  title,
  onRefresh,
  refreshing,
  children,
}: {
  title: string;
  onRefresh?: () => void;
  refreshing?: boolean;
  /** the screen's actions (add rule, add silence) */
  children?: ReactNode;
}) {
  return (
    <PageTitle documentTitle={title}>
      <nav aria-label="Notifications" className="flex items-center gap-1 text-sm">
        {TABS.map((t) => (
          <NavLink
            key={t.to}
            to={t.to}
            end={t.end}
            className={({ isActive }) =>
              cn(
                'rounded-md px-2.5 py-1 font-medium focus-visible:outline-2 focus-visible:outline-blue-600',
                isActive ? 'bg-gray-100 text-gray-900' : 'text-gray-500 hover:bg-gray-50 hover:text-gray-800',
              )
            }
          >
            {t.label}
          </NavLink>
        ))}
      </nav>
      {onRefresh && (
        <Button variant="ghost" size="icon" aria-label="Refresh" onClick={onRefresh} disabled={refreshing}>
          <RotateCw size={15} className={refreshing ? 'animate-spin' : undefined} aria-hidden />
        </Button>
      )}
      {children}
    </PageTitle>
  );
}
