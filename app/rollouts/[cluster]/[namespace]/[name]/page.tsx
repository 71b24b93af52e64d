import { Suspense } from "react";
import { SkeletonRows } from "@/components/ui/skeleton";
import { decodeSegment } from "@/lib/format/hrefs";
import { RolloutDetailView } from "./_components/rollout-detail-view";

interface RolloutPageProps {
  params: Promise<{ cluster: string; namespace: string; name: string }>;
}

export default async function RolloutPage({ params }: RolloutPageProps) {
  const { cluster, namespace, name } = await params;
  return (
    <Suspense fallback={<SkeletonRows rows={12} label="Loading rollout…" />}>
      <RolloutDetailView cluster={decodeSegment(cluster)} namespace={decodeSegment(namespace)} name={decodeSegment(name)} />
    </Suspense>
  );
}
