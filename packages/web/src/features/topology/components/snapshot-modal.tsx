import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Download } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { toastError } from '#web/lib/toast.ts';
import { downloadSnapshot } from '../api/snapshot.ts';
import { SNAPSHOT_ERROR, SNAPSHOT_RANGES } from '../lib/constants.ts';

/** The snapshot form of seed 002 section 3. */
interface SnapshotForm {
  timeRange: string;
  relatedComponents: boolean;
}

/** Snapshot download (seed 002 section 2.7): the component's snapshot as '{name}-snapshot.zip'. */
export function SnapshotModal({
  component,
  onClose,
}: {
  component: { id: string; name: string } | undefined;
  onClose: () => void;
}) {
  const rangeId = useId();
  const relatedId = useId();
  const [busy, setBusy] = useState(false);
  const { register, handleSubmit } = useForm<SnapshotForm>({
    defaultValues: { timeRange: '2d', relatedComponents: false },
  });
  const submit = handleSubmit(async (v) => {
    if (!component) return;
    setBusy(true);
    try {
      await downloadSnapshot(component.id, component.name, { start: v.timeRange, related: v.relatedComponents });
      onClose();
    } catch {
      toastError(SNAPSHOT_ERROR);
    } finally {
      setBusy(false);
    }
  });
  return (
    <Modal
      open={!!component}
      onOpenChange={(o) => !o && onClose()}
      title="Snapshot"
      description={component ? `Download a snapshot of ${component.name}` : undefined}
      size="small"
      footer={
        <Button variant="primary" type="submit" form="topology-snapshot-form" disabled={busy}>
          {busy ? <Spinner className="text-white" /> : <Download size={14} aria-hidden />} Download
        </Button>
      }
    >
      <form id="topology-snapshot-form" onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-1">
          <label htmlFor={rangeId} className="block text-sm font-medium text-gray-700">
            Time range
          </label>
          <select
            id={rangeId}
            {...register('timeRange')}
            className="h-9 w-full rounded-md border border-gray-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            {SNAPSHOT_RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <span className="flex items-center gap-2">
          <input id={relatedId} type="checkbox" {...register('relatedComponents')} className="h-4 w-4" />
          <label htmlFor={relatedId} className="text-sm text-gray-700">
            Include related components
          </label>
        </span>
      </form>
    </Modal>
  );
}
