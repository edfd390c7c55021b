import { useCallback, useState } from 'react';
import { toastError, toastFailure } from './toast.ts';

/**
 * A dialog's save: `busy` while `work` runs (its button shows a spinner and is disabled), and a
 * failure becomes a toast (the catalogue message `failure` with the server's reason under it,
 * else the server's message) so the dialog stays open for another try.
 */
export function useBusy(failure?: string): [boolean, (work: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (work: () => Promise<void>) => {
      setBusy(true);
      try {
        await work();
      } catch (err) {
        if (failure) toastFailure(failure, err);
        else toastError(err);
      } finally {
        setBusy(false);
      }
    },
    [failure],
  );
  return [busy, run];
}
