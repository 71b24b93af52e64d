import { Suspense } from "react";
import { SkeletonRows } from "@/components/ui/skeleton";
import { getAppContext } from "@/lib/server/app-context";
import { loadInitialFleetPage } from "@/lib/services/fleet-page";
import { FleetOverview } from "./_components/fleet-overview";

// The first page of rows is rendered per request from the live watch caches.
export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const initial = loadInitialFleetPage(getAppContext(), await searchParams);
  // The overview keeps its filters in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense fallback={<SkeletonRows rows={10} label="Loading rollouts…" />}>
      <FleetOverview initial={initial} />
    </Suspense>
  );
}
