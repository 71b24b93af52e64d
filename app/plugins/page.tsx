import type { Metadata } from "next";
import { getAppContext } from "@/lib/server/app-context";
import { loadInitialPluginsPage } from "@/lib/services/plugins-page";
import { PluginsPage } from "./_components/plugins-page";

export const metadata: Metadata = { title: "Plugins · Rollscope" };

// The registry and the health report are rendered per request, for the filter in the URL.
export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const initial = await loadInitialPluginsPage(getAppContext(), await searchParams);
  // No Suspense boundary: the page is rendered per request, so useSearchParams needs none, and a boundary lets React
  // stream a page this size as a hidden segment a script swaps in, which a live update can race (see the detail page).
  return <PluginsPage initial={initial} />;
}
