import type { Metadata } from "next";
import { Suspense } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { getAppContext } from "@/lib/server/app-context";
import { loadInitialPluginsPage } from "@/lib/services/plugins-page";
import { PluginsPage } from "./_components/plugins-page";

export const metadata: Metadata = { title: "Plugins · Rollscope" };

// The registry and the health report are rendered per request, for the filter in the URL.
export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const initial = await loadInitialPluginsPage(getAppContext(), await searchParams);
  // The filters live in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense fallback={<Skeleton className="h-40 w-full" />}>
      <PluginsPage initial={initial} />
    </Suspense>
  );
}
