"use client";

import Link from "next/link";
import { memo } from "react";
import { DOT_TONES } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { clusterHref } from "@/lib/format/hrefs";
import { formatAbsoluteTime } from "@/lib/format/relative-time";
import { connectionLabel, connectionTone } from "./connection";

/** Hover text: state, since when, and what failed. */
export function describeConnection(cluster: ClusterStateView): string {
  const since = formatAbsoluteTime(cluster.since);
  const head = `${cluster.name}${cluster.label ? ` (${cluster.label})` : ""}: ${connectionLabel(cluster.connection).toLowerCase()}${since ? ` since ${since}` : ""}`;
  return cluster.error ? `${head}\n${cluster.error}` : head;
}

/** A cluster and its connection state, linking to the cluster page. A down cluster stands out without hiding others. */
export const ClusterChip = memo(function ClusterChip({ cluster }: { cluster: ClusterStateView }) {
  const tone = connectionTone(cluster.connection);
  const healthy = cluster.connection === "connected";
  return (
    <Link
      href={clusterHref(cluster.name)}
      prefetch={false}
      data-testid="cluster-chip"
      data-cluster={cluster.name}
      data-connection={cluster.connection}
      title={describeConnection(cluster)}
      className={cn(
        "inline-flex h-7 max-w-full items-center gap-1.5 rounded-full border px-2.5 text-xs font-medium whitespace-nowrap transition-colors",
        healthy
          ? "border-slate-200 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800"
          : tone === "red"
            ? "border-rose-300 bg-rose-50 text-rose-800 hover:bg-rose-100 dark:border-rose-800 dark:bg-rose-950/50 dark:text-rose-200"
            : "border-amber-300 bg-amber-50 text-amber-900 hover:bg-amber-100 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200",
        focusRing,
      )}
    >
      <span
        aria-hidden
        className={cn("size-2 shrink-0 rounded-full", DOT_TONES[tone], cluster.connection === "reconnecting" && "animate-pulse")}
      />
      <span className="min-w-0 truncate">{cluster.name}</span>
      {!healthy && (
        <span className="font-normal opacity-80">
          {connectionLabel(cluster.connection).toLowerCase()} · <RelativeTime at={cluster.since} />
        </span>
      )}
      {healthy && <span className="font-normal tabular-nums text-slate-500 dark:text-slate-400">{cluster.rolloutCount}</span>}
    </Link>
  );
});

/** A connected cluster as a bare dot, for fleets too large to name every healthy cluster in the header. */
export const ClusterDot = memo(function ClusterDot({ cluster }: { cluster: ClusterStateView }) {
  return (
    <Link
      href={clusterHref(cluster.name)}
      prefetch={false}
      data-testid="cluster-chip"
      data-cluster={cluster.name}
      data-connection={cluster.connection}
      title={describeConnection(cluster)}
      aria-label={`${cluster.name}: ${connectionLabel(cluster.connection).toLowerCase()}`}
      className={cn("block rounded-full p-0.5", focusRing)}
    >
      <span aria-hidden className={cn("block size-2 rounded-full", DOT_TONES[connectionTone(cluster.connection)])} />
    </Link>
  );
});
