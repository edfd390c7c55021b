import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Building2, ChevronRight, Plus } from 'lucide-react';
import { createOrganizationSchema } from '@watchdeck/core';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/http.ts';
import { toastError } from '#web/lib/toast.ts';
import {
  acceptInvitation,
  createOrganization,
  listOrganizations,
  organizationsQueryKey,
  useSwitchOrganization,
} from '../api/organizations.ts';
import { ProvisioningWait } from './provisioning-wait.tsx';

const input =
  'h-9 w-full rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500';

/** Signed in with no organisation chosen (hosted mode): choose one, accept an invitation, or create one. */
export function OrganizationPicker() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: organizationsQueryKey, queryFn: ({ signal }) => listOrganizations(signal) });
  const { waiting, switchTo } = useSwitchOrganization();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  if (waiting) return <ProvisioningWait organization={waiting} />;

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = createOrganizationSchema.safeParse({ name, ...(slug.trim() ? { slug: slug.trim() } : {}) });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const org = await createOrganization(parsed.data);
      void queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
      switchTo(org.slug);
    } catch (err) {
      const fields = (err as { body?: { errors?: Record<string, string> } }).body?.errors;
      if (fields) setErrors(fields);
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const accept = async (orgSlug: string) => {
    try {
      await acceptInvitation(orgSlug);
      switchTo(orgSlug);
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <main className="flex min-h-screen items-start justify-center bg-gray-50 px-4 py-16">
      <div className="w-full max-w-lg space-y-6">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Choose an organisation</h1>
          <p className="mt-1 text-sm text-gray-500">Each organisation has its own checks, catalog and incidents.</p>
        </div>

        <section aria-label="Your organisations" className="rounded-lg border border-gray-200 bg-white shadow-sm">
          {list.isPending ? (
            <div className="flex justify-center p-6">
              <Spinner />
            </div>
          ) : list.error ? (
            <p className="p-4 text-sm text-red-600" role="alert">
              {errorMessage(list.error)}
            </p>
          ) : list.data.length === 0 ? (
            <p className="p-4 text-sm text-gray-500">You belong to no organisation yet: create one below.</p>
          ) : (
            <ul className="divide-y divide-gray-100">
              {list.data.map((o) => (
                <li key={o.slug} className="flex items-center gap-3 px-4 py-3">
                  <Building2 size={18} className="shrink-0 text-gray-400" aria-hidden />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium text-gray-900">{o.name}</p>
                    <p className="truncate text-xs text-gray-500">
                      {o.slug}
                      {o.invited ? ' · invitation' : o.role ? ` · ${o.role}` : ''}
                      {o.status !== 'ready' ? ` · ${o.status}` : ''}
                    </p>
                  </div>
                  {o.invited ? (
                    <Button size="sm" variant="primary" onClick={() => void accept(o.slug)}>
                      Accept
                    </Button>
                  ) : (
                    <Button size="sm" onClick={() => switchTo(o.slug)} aria-label={`Open ${o.name}`}>
                      Open <ChevronRight size={14} aria-hidden />
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>

        <form
          onSubmit={(e) => void create(e)}
          className="space-y-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
          aria-label="Create an organisation"
          noValidate
        >
          <h2 className="text-sm font-semibold text-gray-900">Create an organisation</h2>
          <label className="block text-sm text-gray-700">
            Name
            <input className={input} value={name} onChange={(e) => setName(e.target.value)} name="name" />
            {errors.name && <span className="mt-1 block text-xs text-red-600">{errors.name}</span>}
          </label>
          <label className="block text-sm text-gray-700">
            Slug <span className="text-gray-400">(optional: from the name)</span>
            <input className={input} value={slug} onChange={(e) => setSlug(e.target.value)} name="slug" />
            {errors.slug && <span className="mt-1 block text-xs text-red-600">{errors.slug}</span>}
          </label>
          <Button type="submit" variant="primary" disabled={busy}>
            <Plus size={14} aria-hidden /> {busy ? 'Creating...' : 'Create'}
          </Button>
        </form>
      </div>
    </main>
  );
}
