import { stringify } from 'yaml';
import { CodeEditor } from '#web/components/code-editor/index.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/http.ts';
import type { CheckDetails } from '#web/features/health/api/check-details.ts';

/** Spec tab: the check's definition as YAML, read-only (edit it through the canary). */
export function CheckSpec({
  details,
  isLoading,
  error,
}: {
  details: CheckDetails | null | undefined;
  isLoading: boolean;
  error: unknown;
}) {
  if (error) return <p className="text-sm text-red-600">{errorMessage(error)}</p>;
  if (isLoading) return <Spinner />;
  if (!details) return <p className="text-sm text-gray-500">No spec</p>;
  const doc = { [details.type]: details.spec ?? {} };
  return <CodeEditor value={stringify(doc)} language="yaml" readOnly height="24rem" aria-label="Check spec" />;
}
