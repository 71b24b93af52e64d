import { Suspense } from "react";
import { SkeletonRows } from "@/components/ui/skeleton";
import { FleetOverview } from "./_components/fleet-overview";

export default function HomePage() {
  // The overview keeps its filters in the URL (useSearchParams), which needs a Suspense boundary to prerender.
  return (
    <Suspense fallback={<SkeletonRows rows={10} label="Loading rollouts…" />}>
      <FleetOverview />
    </Suspense>
  );
}
