import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Building2, Check, ChevronDown, KeyRound, LogOut, Plus, Users } from 'lucide-react';
import { apiPost } from '#web/lib/http.ts';
import { clearBackend, currentBackend } from '#web/lib/backend.ts';
import { useSession } from '#web/lib/session.tsx';
import { toastError } from '#web/lib/toast.ts';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { listOrganizations, organizationsQueryKey, useSwitchOrganization } from '../api/organizations.ts';
import { ProvisioningWait } from './provisioning-wait.tsx';

const trigger =
  'flex items-center gap-2 rounded-md py-1 pr-1.5 pl-2 text-sm text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600';

const MEMBERS_PATH = '/organizations/members';

/** Back to the organisation picker (choose another or create one). */
function toPicker() {
  clearBackend();
  window.location.assign('/');
}

/** The top bar's organisation switcher (hosted mode, seed 000 section 1). */
export function OrganizationSwitcher() {
  const { whoami } = useSession();
  const current = whoami.organization ?? currentBackend()?.slug ?? '';
  const list = useQuery({ queryKey: organizationsQueryKey, queryFn: ({ signal }) => listOrganizations(signal) });
  const { waiting, switchTo } = useSwitchOrganization();
  const navigate = useNavigate();
  const name = list.data?.find((o) => o.slug === current)?.name ?? current;
  return (
    <>
      {waiting && <ProvisioningWait organization={waiting} />}
      <DropdownMenu>
        <DropdownMenuTrigger className={trigger} aria-label="Organisation switcher">
          <Building2 size={16} className="text-gray-500" aria-hidden />
          <span className="max-w-36 truncate font-medium">{name}</span>
          <ChevronDown size={14} className="text-gray-400" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-64">
          <DropdownMenuLabel>Organisations</DropdownMenuLabel>
          {(list.data ?? [])
            .filter((o) => !o.invited)
            .map((o) => (
              <DropdownMenuItem key={o.slug} onSelect={() => o.slug !== current && switchTo(o.slug)}>
                <span className="min-w-0 flex-1 truncate">{o.name}</span>
                {o.slug === current && <Check size={14} className="text-blue-600" aria-label="current" />}
              </DropdownMenuItem>
            ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void navigate(MEMBERS_PATH)}>
            <Users size={15} aria-hidden className="text-gray-500" /> Members of {name}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={toPicker}>
            <Plus size={15} aria-hidden className="text-gray-500" /> Create or join an organisation
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}

/**
 * The top bar's user button (hosted mode): who is signed in, the kubeconfig of the current
 * organisation (the shell's modal, opened through `onDownloadKubeconfig`), and sign out of this
 * origin.
 */
export function HostedUserButton({ onDownloadKubeconfig }: { onDownloadKubeconfig?: () => void }) {
  const { whoami, displayedRole } = useSession();
  const queryClient = useQueryClient();
  const signOut = async () => {
    try {
      // the session is this origin's (the organisation's backend only knows the token)
      await apiPost(`${window.location.origin}/api/auth/logout`, undefined, { skipAuthRedirect: true });
    } catch (err) {
      toastError(err);
      return;
    }
    clearBackend();
    queryClient.clear();
    window.location.assign('/login');
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={trigger} aria-label="User menu">
        <span
          aria-hidden
          className="flex h-7 w-7 items-center justify-center rounded-full bg-gradient-to-br from-blue-500 to-indigo-600 text-[11px] font-semibold text-white"
        >
          {whoami.user.name.trim().slice(0, 2).toUpperCase()}
        </span>
        <span className="hidden max-w-40 truncate font-medium md:inline">{whoami.user.name}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <div className="px-2 py-2">
          <p className="truncate text-sm font-medium text-gray-900">{whoami.user.name}</p>
          {whoami.user.email && <p className="truncate text-xs text-gray-500">{whoami.user.email}</p>}
          <p className="mt-0.5 text-[11px] font-medium tracking-wide text-gray-400 uppercase">{displayedRole}</p>
        </div>
        <DropdownMenuSeparator />
        {onDownloadKubeconfig && (
          <DropdownMenuItem onSelect={onDownloadKubeconfig}>
            <KeyRound size={15} aria-hidden className="text-gray-500" /> Download kubeconfig
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => void signOut()}>
          <LogOut size={15} aria-hidden className="text-gray-500" /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
