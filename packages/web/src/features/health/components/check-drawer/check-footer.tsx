import { Link } from 'react-router';
import { Pencil, Play } from 'lucide-react';
import { canRunCheck } from '@watchdeck/core';
import { AccessGuard } from '#web/components/auth/index.ts';
import { AttachAsEvidenceButton } from '#web/components/link-to-incident/index.ts';
import { Button, buttonClass } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/session.tsx';
import { useLinkTo } from '#web/lib/known-routes.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { PlaybooksDropdown } from '#web/components/playbook-run/index.ts';
import { useRunCheck } from '#web/features/health/api/run-check.ts';
import type { CheckSummary } from '#web/features/health/api/types.ts';

/**
 * The drawer's footer: Edit (the canary's settings page), Run Now (commander, or anyone who may
 * write canaries: core canRunCheck), Playbooks (write on playbook_runs) and the create-evidence
 * button (Attach as Evidence: the Link to Incident dialog). `embedded` hides Playbooks and create-evidence (seed 000: one embedded mode).
 */
export function CheckFooter({ check, embedded }: { check: CheckSummary; embedded?: boolean }) {
  const { whoami } = useSession();
  const runCheck = useRunCheck();
  // a run opens its page: no Playbooks menu while the run page isn't registered
  const linkTo = useLinkTo();
  const playbooks = !embedded && !!linkTo('/playbooks/runs/new');
  const runNow = async () => {
    try {
      const result = await runCheck.mutateAsync(check.id);
      const detail = result?.error || result?.message;
      const text = `${check.name}: ${result?.pass ? 'passed' : 'failed'}${detail ? ` (${detail})` : ''}`;
      if (result?.pass) toastSuccess(text);
      else toastError(text);
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <AccessGuard resource="canaries" action="read">
        <Link to={`/settings/canaries/${check.canary_id}`} className={buttonClass('secondary', 'md', 'mr-auto')}>
          <Pencil size={14} aria-hidden /> Edit
        </Link>
      </AccessGuard>
      {playbooks && <PlaybooksDropdown resource={{ check_id: check.id }} side="top" />}
      {!embedded && (
        <AttachAsEvidenceButton
          target={{
            type: 'check',
            check_id: check.id,
            evidence: {
              name: check.name,
              status: check.status,
              endpoint: check.endpoint ?? null,
              canary: check.canary_name ?? null,
            },
          }}
          defaultDescription={`${check.name} is ${check.status ?? 'unknown'}`}
        />
      )}
      {canRunCheck(whoami.roles) && (
        <Button variant="primary" onClick={() => void runNow()} disabled={runCheck.isPending}>
          {runCheck.isPending ? <Spinner size={14} className="text-white" /> : <Play size={14} aria-hidden />}
          {runCheck.isPending ? 'Running…' : 'Run Now'}
        </Button>
      )}
    </div>
  );
}
