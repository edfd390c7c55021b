import { useId, useMemo, useState } from 'react';
import { Search } from 'lucide-react';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { inputClass } from '#web/components/forms/index.ts';
import { errorMessage } from '#web/lib/http.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useAddMembers } from '../api/use-add-members.ts';
import { usePeople } from '../api/use-people.ts';
import { addedMessage } from './messages.ts';

/** Pick people who are not members yet and add them in one request. */
export function AddMembersDialog({
  teamId,
  memberIds,
  open,
  onOpenChange,
}: {
  teamId: string;
  memberIds: ReadonlySet<string>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const people = usePeople(open);
  const add = useAddMembers(teamId);
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const searchId = useId();

  const candidates = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return (people.data ?? []).filter(
      (p) =>
        !memberIds.has(p.id) && (!f || p.name.toLowerCase().includes(f) || (p.email ?? '').toLowerCase().includes(f)),
    );
  }, [people.data, memberIds, filter]);

  const close = (next: boolean) => {
    if (!next) {
      setChosen(new Set());
      setFilter('');
    }
    onOpenChange(next);
  };

  const toggle = (id: string) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = async () => {
    const ids = [...chosen];
    const names = (people.data ?? []).filter((p) => chosen.has(p.id)).map((p) => p.name);
    try {
      await add.mutateAsync(ids);
      toastSuccess(addedMessage(names));
      close(false);
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Add Members"
      size="small"
      footer={
        <>
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button variant="primary" onClick={() => void submit()} disabled={chosen.size === 0 || add.isPending}>
            {add.isPending ? 'Adding…' : chosen.size > 1 ? `Add ${chosen.size} members` : 'Add'}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <div className="relative">
          <Search size={14} aria-hidden className="absolute top-1/2 left-2.5 -translate-y-1/2 text-gray-400" />
          <label htmlFor={searchId} className="sr-only">
            Search people
          </label>
          <input
            id={searchId}
            type="search"
            placeholder="Search by name or email"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            className={`${inputClass()} pl-8`}
          />
        </div>
        {people.isPending ? (
          <p className="flex items-center gap-2 text-sm text-gray-500" role="status">
            <Spinner /> Loading…
          </p>
        ) : people.error ? (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(people.error)}
          </p>
        ) : candidates.length === 0 ? (
          <p className="py-6 text-center text-sm text-gray-500">No options found</p>
        ) : (
          <ul
            className="max-h-80 divide-y divide-gray-100 overflow-auto rounded-md border border-gray-200"
            aria-label="People"
          >
            {candidates.map((p) => (
              <li key={p.id}>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 hover:bg-gray-50">
                  <input
                    type="checkbox"
                    checked={chosen.has(p.id)}
                    onChange={() => toggle(p.id)}
                    className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
                  />
                  <span className="min-w-0">
                    <span className="block truncate text-sm font-medium text-gray-900">{p.name}</span>
                    {p.email && <span className="block truncate text-xs text-gray-500">{p.email}</span>}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
