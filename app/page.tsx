import { getAppContext } from "@/lib/server/app-context";
import { loadInitialFleetPage } from "@/lib/services/fleet-page";
import { FleetOverview } from "./_components/fleet-overview";

// The first page of rows is rendered per request from the live watch caches.
export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const initial = loadInitialFleetPage(getAppContext(), await searchParams);
  // No Suspense boundary: the page is rendered per request, so useSearchParams needs none, and a boundary lets React
  // stream a page this size as a hidden segment a script swaps in, which a live update can race (see the detail page).
  return <FleetOverview initial={initial} />;
}
