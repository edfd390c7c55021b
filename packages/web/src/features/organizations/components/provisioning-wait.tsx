import { Spinner } from '#web/components/ui/spinner.tsx';

/** Shown while the organisation's instance has no backend yet (seed 000 sections 2 and 8). */
export function ProvisioningWait({ organization }: { organization?: string }) {
  return (
    <div
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 bg-gray-50"
      role="status"
      aria-live="polite"
    >
      <Spinner size={28} className="text-blue-600" />
      <p className="text-sm font-medium text-gray-700">Please wait, instance provisioning in-progress ...</p>
      {organization && <p className="text-xs text-gray-500">{organization}</p>}
    </div>
  );
}
