import { useNavigate, useSearchParams } from 'react-router';
import { AccessGuard } from '#web/components/auth/index.ts';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { Link } from 'react-router';
import { isUuid } from '#web/lib/ids.ts';
import { SilenceForm, type SilenceTarget } from '../components/silence-form.tsx';
import { SILENCE_KINDS } from '../lib/constants.ts';

/** ?check_id= (or canary_id, component_id, config_id) names the resource to start with. */
function targetFromParams(params: URLSearchParams): SilenceTarget | undefined {
  for (const k of SILENCE_KINDS) {
    const id = params.get(k.column);
    if (isUuid(id)) return { kind: k.kind, resource: { id, name: params.get('name') || id } };
  }
  return undefined;
}

/**
 * /notifications/silences/add (seed 002 section 2.15): the add form on its own page, for those
 * who may write notifications (the Unauthorized screen otherwise). Saving returns to the list.
 */
export function AddSilencePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const back = () => void navigate('/notifications/silences');
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 overflow-auto p-4">
      <PageTitle documentTitle="Add Notification Silence">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <Link to="/notifications" className="text-gray-500 hover:text-gray-800">
            Notifications
          </Link>
          <span className="text-gray-400">/</span>
          <Link to="/notifications/silences" className="text-gray-500 hover:text-gray-800">
            Silences
          </Link>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Add</span>
        </nav>
      </PageTitle>
      <AccessGuard resource="notifications" action="write" showUnauthorized>
        <section
          aria-labelledby="add-silence-title"
          className="w-full max-w-2xl rounded-lg border border-gray-200 bg-white p-5 shadow-sm"
        >
          <h1 id="add-silence-title" className="mb-4 text-base font-semibold text-gray-900">
            Add Notification Silence
          </h1>
          <SilenceForm row={null} target={targetFromParams(params)} onDone={back} onCancel={back} />
        </section>
      </AccessGuard>
    </div>
  );
}
