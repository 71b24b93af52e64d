import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Page not found · Rollscope" };

/** Any URL no route matches: say so in the app's own frame and offer the way back. */
export default function NotFound() {
  return (
    <div className="mx-auto mt-16 flex w-full max-w-md flex-col gap-4">
      <Card className="flex flex-col gap-3 p-6" data-testid="not-found">
        <p className="text-sm font-semibold text-sky-700 tabular-nums dark:text-sky-300">404</p>
        <h1 className="text-lg font-semibold tracking-tight">Page not found</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Nothing lives at this address. The overview lists every rollout Rollscope watches, in every cluster.
        </p>
        <div className="flex flex-wrap gap-2">
          <Link href="/" className={buttonClasses("primary")}>
            All rollouts
          </Link>
          <Link href="/clusters" className={buttonClasses("secondary")}>
            Clusters
          </Link>
          <Link href="/plugins" className={buttonClasses("secondary")}>
            Plugins
          </Link>
        </div>
      </Card>
    </div>
  );
}
