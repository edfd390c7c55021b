import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useConfigSearch, useLinkConfig } from '../api/config-links.ts';
import { LINK_SUCCESS } from '../lib/constants.ts';

/** Link to catalog (seed 002 section 2.7): a manual link from the component to a config item. */
export function LinkCatalogModal({
  component,
  onClose,
}: {
  component: { id: string; name: string } | undefined;
  onClose: () => void;
}) {
  return component ? <Dialog component={component} onClose={onClose} /> : null;
}

function Dialog({ component, onClose }: { component: { id: string; name: string }; onClose: () => void }) {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string>();
  const debounced = useDebouncedValue(search, 300);
  const configs = useConfigSearch(debounced, true);
  const link = useLinkConfig(component.id);
  const submit = () => {
    if (!chosen) return;
    link.mutate(chosen, {
      onSuccess: () => {
        toastSuccess(LINK_SUCCESS);
        onClose();
      },
      onError: (err) => toastError(err),
    });
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Link to Catalog"
      description={`Link ${component.name} to a catalog item`}
      size="small"
      footer={
        <Button variant="primary" onClick={submit} disabled={!chosen || link.isPending}>
          {link.isPending && <Spinner className="text-white" />} Link
        </Button>
      }
    >
      <div className="space-y-3">
        <div className="space-y-1">
          <label htmlFor={searchId} className="block text-sm font-medium text-gray-700">
            Catalog item
          </label>
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search by name"
            className="h-9 w-full rounded-md border border-gray-300 px-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-600"
          />
        </div>
        <fieldset className="max-h-72 space-y-0.5 overflow-auto" aria-label="Catalog items">
          {configs.isPending && <Spinner />}
          {configs.data?.length === 0 && <p className="text-sm text-gray-500">No resources found</p>}
          {configs.data?.map((c) => (
            <label
              key={c.id}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50"
            >
              <input
                type="radio"
                name="config"
                value={c.id}
                checked={chosen === c.id}
                onChange={() => setChosen(c.id)}
              />
              <span className="truncate">{c.name}</span>
              <span className="ml-auto shrink-0 text-xs text-gray-500">{c.type}</span>
            </label>
          ))}
        </fieldset>
      </div>
    </Modal>
  );
}
