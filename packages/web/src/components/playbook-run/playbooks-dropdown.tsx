import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ChevronDown, History, Workflow } from 'lucide-react';
import { AccessGuard } from '#web/components/auth/index.ts';
import { buttonClass } from '#web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuText,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useApplicablePlaybooks } from './api.ts';
import { RunPlaybookDialog } from './run-dialog.tsx';
import type { PlaybookResource, PlaybookSummary } from './types.ts';

const clean = (r: PlaybookResource) =>
  Object.fromEntries(Object.entries(r).filter((e): e is [string, string] => !!e[1]));

function Menu({ resource, side }: { resource: PlaybookResource; side?: 'top' | 'bottom' }) {
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [chosen, setChosen] = useState<PlaybookSummary | undefined>();
  // listed when the menu first opens: a drawer shouldn't ask for playbooks nobody looks at
  const [asked, setAsked] = useState(false);
  const playbooks = useApplicablePlaybooks(resource, asked);
  return (
    <>
      <DropdownMenu
        open={menuOpen}
        onOpenChange={(o) => {
          setMenuOpen(o);
          if (o) setAsked(true);
        }}
      >
        <DropdownMenuTrigger className={buttonClass('secondary', 'md')}>
          <Workflow size={15} aria-hidden /> Playbooks <ChevronDown size={14} aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" side={side}>
          {playbooks.isPending && (
            <DropdownMenuText>
              <Spinner size={12} /> Loading…
            </DropdownMenuText>
          )}
          {playbooks.error && <DropdownMenuText>{(playbooks.error as Error).message}</DropdownMenuText>}
          {playbooks.data?.length === 0 && <DropdownMenuText>No playbooks for this resource</DropdownMenuText>}
          {playbooks.data?.map((p) => (
            <DropdownMenuItem key={p.id} onSelect={() => setChosen(p)}>
              {p.title || p.name}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void navigate(`/playbooks/runs?${new URLSearchParams(clean(resource))}`)}>
            <History size={14} aria-hidden /> Playbook runs
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {chosen && (
        <RunPlaybookDialog
          playbook={chosen}
          resource={resource}
          open
          onOpenChange={(o) => {
            if (!o) setChosen(undefined);
          }}
        />
      )}
    </>
  );
}

/**
 * The Playbooks dropdown button on a check, config item or component (seed 000): the playbooks
 * applicable to it; choosing one opens the run dialog. Shown only with write on playbook_runs.
 */
export function PlaybooksDropdown({ resource, side }: { resource: PlaybookResource; side?: 'top' | 'bottom' }) {
  return (
    <AccessGuard resource="playbook_runs" action="write">
      <Menu resource={resource} side={side} />
    </AccessGuard>
  );
}
