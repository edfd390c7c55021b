import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Bell, BookOpen, CircleHelp, ExternalLink, RotateCw } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { DOCS_URL } from '#web/lib/config.ts';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { PageTitleOutlet } from '#web/components/ui/page-title.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { useLinkTo } from '#web/lib/known-routes.tsx';
import { navItemFor } from '../navigation.ts';
import { UserMenu } from './user-menu.tsx';
import { KubeconfigModal } from './kubeconfig-modal.tsx';
import { useSession } from '#web/lib/session.tsx';
import {
  HostedUserButton,
  OrganizationSwitcher,
} from '#web/features/organizations/components/organization-switcher.tsx';

const iconButton =
  'inline-flex h-9 w-9 items-center justify-center rounded-md text-gray-500 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-600';

function SectionTitle() {
  const { pathname } = useLocation();
  const match = navItemFor(pathname);
  if (!match) return null;
  return (
    <span className="flex min-w-0 items-center gap-1.5 text-sm">
      {match.group && <span className="text-gray-400">{match.group.label} /</span>}
      <span className="truncate font-semibold text-gray-900">{match.item.label}</span>
    </span>
  );
}

/** Page title on the left; refresh, notifications, help and the user menu on the right. */
export function TopBar() {
  const queryClient = useQueryClient();
  const fetching = useIsFetching() > 0;
  // the bell shows once the notifications screen exists
  const notifications = useLinkTo()('/notifications');
  // hosted mode (an organisation's backend answered whoami): the switcher and the user button
  const hosted = !!useSession().whoami.organization;
  const [kubeconfigOpen, setKubeconfigOpen] = useState(false);
  return (
    // at least 56 px; taller when a page's controls wrap onto a second line (narrow windows)
    <header className="flex min-h-14 shrink-0 items-center justify-between gap-4 border-b border-gray-200 bg-white px-4 py-2 sm:px-6">
      <PageTitleOutlet fallback={<SectionTitle />} className="min-w-0 flex-1" />
      <div className="flex shrink-0 items-center gap-1">
        <Tooltip content="Refresh">
          <button
            type="button"
            className={iconButton}
            aria-label="Refresh"
            onClick={() => void queryClient.invalidateQueries()}
          >
            <RotateCw size={17} aria-hidden className={cn(fetching && 'animate-spin')} />
          </button>
        </Tooltip>
        {notifications && (
          <Tooltip content="Notifications">
            <Link to={notifications} className={iconButton} aria-label="Notifications">
              <Bell size={17} aria-hidden />
            </Link>
          </Tooltip>
        )}
        <DropdownMenu>
          <DropdownMenuTrigger className={iconButton} aria-label="Help">
            <CircleHelp size={17} aria-hidden />
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem asChild>
              <a href={DOCS_URL} target="_blank" rel="noreferrer">
                <BookOpen size={15} aria-hidden className="text-gray-500" /> Documentation
                <ExternalLink size={12} aria-hidden className="ml-auto text-gray-400" />
              </a>
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
        <div className="mx-1.5 h-6 w-px bg-gray-200" aria-hidden />
        {hosted ? (
          <>
            <OrganizationSwitcher />
            <HostedUserButton onDownloadKubeconfig={() => setKubeconfigOpen(true)} />
            <KubeconfigModal open={kubeconfigOpen} onOpenChange={setKubeconfigOpen} />
          </>
        ) : (
          <UserMenu />
        )}
      </div>
    </header>
  );
}
