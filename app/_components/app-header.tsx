"use client";

import { SessionStatus } from "@/components/actions/session-status";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { ClusterChip, ClusterDot } from "@/components/clusters/cluster-chip";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useClusters } from "@/lib/queries/use-clusters";
import { useSession } from "@/lib/queries/use-session";
import { LiveIndicator } from "./live-indicator";
import { ServerNotices } from "./server-notices";
import { SimulatedTimeBadge } from "./simulated-time-badge";

const NAV = [
  { href: "/", label: "Rollouts", match: (p: string) => p === "/" || p.startsWith("/rollouts") },
  { href: "/activity", label: "Activity", match: (p: string) => p.startsWith("/activity") },
  { href: "/plugins", label: "Plugins", match: (p: string) => p.startsWith("/plugins") },
  { href: "/clusters", label: "Clusters", match: (p: string) => p.startsWith("/clusters") },
  { href: "/audit", label: "Audit", match: (p: string) => p.startsWith("/audit"), auditReaders: true },
];

/** Beyond this many clusters, connected ones shrink to dots so the header stays one line on a 1280 px screen. */
const COMPACT_ABOVE = 8;

function ClusterChips() {
  const { data, error, isPending } = useClusters();
  if (isPending) {
    return (
      <div className="flex gap-2" aria-hidden>
        <Skeleton className="h-7 w-24 rounded-full" />
        <Skeleton className="h-7 w-28 rounded-full" />
      </div>
    );
  }
  if (error && !data) {
    return (
      <span role="alert" className="text-xs text-rose-700 dark:text-rose-300">
        Clusters unavailable: {error.message}
      </span>
    );
  }
  // Down clusters first: they are what an operator needs to see.
  const clusters = [...(data?.clusters ?? [])].sort(
    (a, b) => Number(a.connection === "connected") - Number(b.connection === "connected") || a.name.localeCompare(b.name),
  );
  const compact = clusters.length > COMPACT_ABOVE;
  const named = compact ? clusters.filter((c) => c.connection !== "connected") : clusters;
  const dotted = compact ? clusters.filter((c) => c.connection === "connected") : [];
  return (
    <ul aria-label="Clusters" className="flex min-w-0 flex-wrap items-center gap-1.5">
      {named.map((c) => (
        <li key={c.name} className="min-w-0 max-w-full">
          <ClusterChip cluster={c} />
        </li>
      ))}
      {dotted.length > 0 && (
        <li className="flex h-7 max-w-full min-w-0 items-center gap-1 rounded-full border border-slate-200 bg-white pr-1 pl-2.5 text-xs text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400">
          <Link href="/clusters" className={cn("mr-1 font-medium whitespace-nowrap hover:underline", focusRing)}>
            {dotted.length} connected
          </Link>
          <ul className="flex flex-wrap items-center" aria-label="Connected clusters">
            {dotted.map((c) => (
              <li key={c.name}>
                <ClusterDot cluster={c} />
              </li>
            ))}
          </ul>
        </li>
      )}
    </ul>
  );
}

export function AppHeader() {
  const pathname = usePathname();
  // The audit link appears once the session says the user may read the log (authorization.auditReaders).
  const session = useSession().data;
  const canReadAudit = session?.canReadAudit === true;
  // Signed out (sign-in modes), the clusters and the live stream are not the user's to see: no chips, no live state,
  // and no "unavailable" error for the 401s they would get, on the sign-in page or on the way to it.
  const signedOut = session !== undefined && session.mode !== "none" && session.user === null;
  const nav = NAV.filter((item) => !item.auditReaders || canReadAudit);
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto flex w-full max-w-[2560px] flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2 lg:gap-x-4 lg:px-6">
        <Link href="/" className={cn("flex items-center gap-2 rounded text-base font-semibold tracking-tight", focusRing)}>
          <svg viewBox="0 0 24 24" className="size-6" aria-hidden>
            <rect x="2" y="13" width="20" height="5" rx="2.5" className="fill-slate-200 dark:fill-slate-700" />
            <rect x="2" y="13" width="8" height="5" rx="2.5" className="fill-sky-500" />
            <path
              d="M4 9.5 L9 5.5 L13 8 L20 3.5"
              fill="none"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              className="stroke-sky-500"
            />
          </svg>
          Rollscope
        </Link>
        <SimulatedTimeBadge />
        <nav aria-label="Main" className="flex gap-1">
          {nav.map((item) => {
            const current = item.match(pathname);
            return (
              <Link
                key={item.href}
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "rounded-md px-2.5 py-1 text-sm font-medium",
                  current
                    ? "bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-white"
                    : "text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white",
                  focusRing,
                )}
              >
                {item.label}
              </Link>
            );
          })}
        </nav>
        <div className="ml-auto flex max-w-full min-w-0 items-center gap-3 lg:order-last lg:ml-0">
          <SessionStatus />
          {!signedOut && <LiveIndicator />}
          <ThemeToggle />
        </div>
        <div className="min-w-0 basis-full lg:flex-1 lg:basis-0">{!signedOut && <ClusterChips />}</div>
      </div>
      <ServerNotices />
    </header>
  );
}
