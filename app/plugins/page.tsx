import type { Metadata } from "next";
import { Suspense } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { PluginsPage } from "./_components/plugins-page";

export const metadata: Metadata = { title: "Plugins · Rollscope" };

export default function Page() {
  // The filters live in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense fallback={<Skeleton className="h-40 w-full" />}>
      <PluginsPage />
    </Suspense>
  );
}
