import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { FullPageLoader } from '#web/components/ui/full-page-state.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { ApiError } from '#web/lib/http.ts';
import { cardsFor, useTopology } from '../api/topology.ts';
import { TopologyCard } from '../components/topology-card.tsx';
import { CARD_SIZES, MULTIPLE_MESSAGE, NOT_FOUND_MESSAGE, type CardSize } from '../lib/constants.ts';

const isSize = (v: string | null): v is CardSize => !!v && (CARD_SIZES as readonly string[]).includes(v);

/**
 * /view/topology/{id} (seed 002 section 2.1): one component's card, read-only, outside the shell
 * and without waiting for the feature flags; `?size=` picks the card size (default extra_large).
 */
export function PublicTopologyPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const sizeParam = params.get('size');
  const size: CardSize = isSize(sizeParam) ? sizeParam : 'extra_large';
  const topology = useTopology({ id }, { enabled: !!id });
  const self = cardsFor(topology.data, id).self;
  // one id answers one component (seed 002 section 8 warns when it does not)
  const multiple = (topology.data?.components.length ?? 0) > 1;
  useEffect(() => {
    if (multiple) toast.warning(MULTIPLE_MESSAGE);
  }, [multiple]);
  // an id that is no component (400) or unknown (404, or an empty answer) is not found
  const notFound =
    !id ||
    (topology.error instanceof ApiError && (topology.error.status === 400 || topology.error.status === 404)) ||
    (topology.data && !self);
  if (!notFound && topology.isPending) return <FullPageLoader />;
  return (
    <main className="min-h-screen bg-gray-50 p-4">
      <PageTitle documentTitle={self ? self.title || self.name : 'Topology'}>{null}</PageTitle>
      {notFound ? (
        <p className="py-12 text-center text-base text-gray-600" role="alert">
          {NOT_FOUND_MESSAGE}
        </p>
      ) : topology.error ? (
        <ErrorAlert error={topology.error} />
      ) : (
        self && <TopologyCard component={self} size={size} />
      )}
    </main>
  );
}
