import { Suspense } from "react";
import { SkeletonRows } from "@/components/ui/skeleton";
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
  return (
    <Suspense fallback={<SkeletonRows rows={12} label="Loading rollout…" />}>
      <RolloutDetailView {...rollout} initial={initial} />
    </Suspense>
  );
}
