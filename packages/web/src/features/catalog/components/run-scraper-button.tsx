import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useCan } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { runScraper } from '../api/run-scraper.ts';
import { catalogKeys } from '../api/keys.ts';

/**
 * 'Run now' on a scraper (needs write on config_scrapers): the engine runs it at once; its job
 * history and the catalog are read again when it answers.
 */
export function RunScraperButton({ id }: { id: string }) {
  const canWrite = useCan('config_scrapers', 'write');
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (!canWrite) return null;
  return (
    <Button
      size="sm"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await runScraper(id);
          toastSuccess('Scraper run finished');
        } catch (err) {
          toastError(err);
        } finally {
          setBusy(false);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: ['job_histories'] }),
            queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
          ]);
        }
      }}
    >
      {busy ? <Spinner size={14} /> : <Play size={14} aria-hidden />} Run now
    </Button>
  );
}
