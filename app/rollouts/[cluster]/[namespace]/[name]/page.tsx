import { decodeSegment } from "@/lib/format/hrefs";
import { getAppContext } from "@/lib/server/app-context";
import { loadInitialRolloutDetail } from "@/lib/services/rollout-detail";
import { RolloutDetailView } from "./_components/rollout-detail-view";

// The Rollout is rendered per request from the live watch cache and the stored records.
export const dynamic = "force-dynamic";

interface RolloutPageProps {
  params: Promise<{ cluster: string; namespace: string; name: string }>;
}

export default async function RolloutPage({ params }: RolloutPageProps) {
  const segments = await params;
  const rollout = {
    cluster: decodeSegment(segments.cluster),
    namespace: decodeSegment(segments.namespace),
    name: decodeSegment(segments.name),
  };
  const initial = await loadInitialRolloutDetail(getAppContext(), rollout);
  // No Suspense boundary around the view: nothing in it suspends, and a boundary lets React stream a page this size
  // as a hidden segment swapped in by a script. A live update reaching that boundary before it hydrated made React
  // render it again on the client while the hidden copy was still in the document.
  return <RolloutDetailView {...rollout} initial={initial} />;
}
