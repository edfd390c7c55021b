import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, KeyRound, LogOut, UserRound } from 'lucide-react';
import { FRONTEND_VERSION } from '@watchdeck/core';
import { aboutQuery } from '#web/lib/about.ts';
import { apiPost } from '#web/lib/http.ts';
import { useSession } from '#web/lib/session.tsx';
import { toastError } from '#web/lib/toast.ts';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuText,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { KubeconfigModal } from './kubeconfig-modal.tsx';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

function Avatar({ name, src, size = 28 }: { name: string; src?: string | null; size?: number }) {
  if (src) return <img src={src} alt="" width={size} height={size} className="rounded-full object-cover" />;
  return (
    <span
      aria-hidden
      style={{ width: size, height: size }}
      className="flex items-center justify-center rounded-full bg-gradient-to-br from-blue-500 to-indigo-600 text-[11px] font-semibold text-white"
    >
      {initials(name)}
    </span>
  );
}

/** Profile link, kubeconfig download, versions and sign out. */
export function UserMenu() {
  const { whoami, displayedRole } = useSession();
  const about = useQuery(aboutQuery);
  const queryClient = useQueryClient();
  const [kubeconfigOpen, setKubeconfigOpen] = useState(false);
  const withSessions = whoami.authMode !== 'none';

  const signOut = async () => {
    let next: { redirect_browser_to?: string } | undefined;
    try {
      next = await apiPost('/auth/logout', undefined, { skipAuthRedirect: true });
    } catch (err) {
      toastError(err);
      return;
    }
    queryClient.clear();
    // AUTH=oidc: the provider's logout page ends its session too, then comes back to /login
    window.location.assign(next?.redirect_browser_to ?? '/login');
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          className="flex items-center gap-2 rounded-md py-1 pr-1.5 pl-1 text-sm text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600"
          aria-label="User menu"
        >
          <Avatar name={whoami.user.name} src={whoami.user.avatar} />
          <span className="hidden max-w-40 truncate font-medium md:inline">{whoami.user.name}</span>
          <ChevronDown size={14} className="text-gray-400" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-64">
          <div className="flex items-center gap-3 px-2 py-2">
            <Avatar name={whoami.user.name} src={whoami.user.avatar} size={36} />
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-gray-900">{whoami.user.name}</p>
              {whoami.user.email && <p className="truncate text-xs text-gray-500">{whoami.user.email}</p>}
              <p className="mt-0.5 text-[11px] font-medium tracking-wide text-gray-400 uppercase">{displayedRole}</p>
            </div>
          </div>
          <DropdownMenuSeparator />
          {withSessions && (
            <DropdownMenuItem asChild>
              <Link to="/profile-settings">
                <UserRound size={15} aria-hidden className="text-gray-500" /> Profile
              </Link>
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => setKubeconfigOpen(true)}>
            <KeyRound size={15} aria-hidden className="text-gray-500" /> Download kubeconfig
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuText className="flex justify-between">
            <span>Backend version</span>
            <span className="font-mono text-gray-700" data-testid="backend-version">
              {about.data?.Version ?? '…'}
            </span>
          </DropdownMenuText>
          <DropdownMenuText className="flex justify-between">
            <span>Frontend version</span>
            <span className="font-mono text-gray-700" data-testid="frontend-version">
              {FRONTEND_VERSION}
            </span>
          </DropdownMenuText>
          {withSessions && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => void signOut()}>
                <LogOut size={15} aria-hidden className="text-gray-500" /> Sign out
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <KubeconfigModal open={kubeconfigOpen} onOpenChange={setKubeconfigOpen} />
    </>
  );
}
