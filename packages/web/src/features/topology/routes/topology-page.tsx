import { useRootComponents } from '../api/use-root-components.ts';

const statusColour: Record<string, string> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-amber-500',
};

export function TopologyPage() {
  const components = useRootComponents();
  return (
    <div className="p-6">
      <h1 className="mb-4 text-xl font-semibold">Topology</h1>
      {components.isPending && <p className="text-gray-500">Loading components…</p>}
      {components.error && <p className="text-red-600">{components.error.message}</p>}
      {components.data?.length === 0 && <p className="text-gray-500">There are no components matching this criteria</p>}
      <ul className="grid grid-cols-[repeat(auto-fill,minmax(16rem,1fr))] gap-3">
        {components.data?.map((c) => (
          <li key={c.id} className="rounded border border-gray-200 bg-white p-3 shadow-sm" data-testid="component-card">
            <div className="flex items-center gap-2">
              <span
                className={`h-2.5 w-2.5 rounded-full ${statusColour[c.status ?? ''] ?? 'bg-gray-400'}`}
                title={c.status ?? 'unknown'}
              />
              <span className="font-medium">{c.name}</span>
            </div>
            <div className="mt-1 text-xs text-gray-500">{c.type ?? '—'}</div>
          </li>
        ))}
      </ul>
    </div>
  );
}
