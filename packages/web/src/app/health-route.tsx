import { lazy, Suspense } from 'react';
import { HealthPage } from '../features/health/routes/health-page.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { useCan } from '../lib/session.tsx';

// The canary spec form (CodeMirror and its schema support) only loads when the add-check dialog
// opens: /health's first rows must not wait for an editor nobody asked for yet.
const CanaryForm = lazy(async () => {
  const [{ ResourceForm }, { resourceConfig }] = await Promise.all([
    import('../components/settings-form/resource-form.tsx'),
    import('../features/settings-resources/resources.ts'),
  ]);
  const config = resourceConfig('canaries');
  return {
    default: ({ canWrite, onSaved }: { canWrite: boolean; onSaved: () => void }) => (
      <ResourceForm config={config} row={null} canWrite={canWrite} onSaved={onSaved} />
    ),
  };
});

/**
 * /health composed with the settings resource form (components/) set up for canaries, the
 * settings area's kind, for its add-check dialog (app/ composes features). The same form edits a canary on
 * /settings/canaries/{id}, where the drawer's Edit link goes.
 */
export function HealthRoute() {
  const canWrite = useCan('canaries', 'write');
  return (
    <HealthPage
      canaryForm={({ onSaved }) => (
        <Suspense fallback={<Spinner />}>
          <CanaryForm canWrite={canWrite} onSaved={onSaved} />
        </Suspense>
      )}
    />
  );
}
