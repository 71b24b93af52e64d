import Link from "next/link";
import { describeConnection } from "@/components/clusters/cluster-chip";
import { connectionLabel } from "@/components/clusters/connection";
import { WarningIcon } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { formatCount } from "@/lib/format/count";
import { clusterHref } from "@/lib/format/hrefs";

/**
 * Clusters that are not connected, in one notice: their rollouts stay listed as last seen and the rest of the
 * fleet is unaffected. Clusters where the user's permissions could not be checked say so in a notice of their own.
 */
export function ClusterNotices({ clusters }: { clusters: ClusterStateView[] }) {
  return (
    <>
      <UnreadableClusters clusters={clusters.filter((c) => c.readError)} />
      <DisconnectedClusters clusters={clusters} />
    </>
  );
}

/** Clusters whose Rollouts are hidden because the user's permissions there could not be checked. */
function UnreadableClusters({ clusters }: { clusters: ClusterStateView[] }) {
  if (clusters.length === 0) return null;
  return (
    <section
      aria-label="Clusters hidden from you"
      className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-100"
    >
      <WarningIcon className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <ul className="min-w-0 flex-1">
        {clusters.map((c) => (
          <li key={c.name} data-testid="cluster-read-error" data-cluster={c.name} className="min-w-0 break-words">
            <span className="font-semibold">{c.name}</span>: its rollouts are hidden — {c.readError}
          </li>
        ))}
      </ul>
    </section>
  );
}

function DisconnectedClusters({ clusters }: { clusters: ClusterStateView[] }) {
  const down = clusters.filter((c) => c.connection !== "connected" && c.connection !== "connecting");
  if (down.length === 0) return null;
  const stale = down.reduce((n, c) => n + c.rolloutCount, 0);
  return (
    <section
      aria-label="Cluster problems"
      className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-100"
    >
      <WarningIcon className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">
          {down.length === 1 ? "1 cluster is" : `${down.length} clusters are`} not connected
          {stale > 0 && <span className="font-normal opacity-80"> · {formatCount(stale)} rollouts from them are shown as last seen</span>}
        </p>
        <ul className="mt-1 grid gap-x-6 gap-y-0.5 xl:grid-cols-2 2xl:grid-cols-3">
          {down.map((c) => (
            <li
              key={c.name}
              data-testid="cluster-notice"
              data-cluster={c.name}
              data-connection={c.connection}
              title={describeConnection(c)}
              className="min-w-0 truncate"
            >
              <Link href={clusterHref(c.name)} className="font-semibold underline-offset-2 hover:underline">
                {c.name}
              </Link>{" "}
              {connectionLabel(c.connection).toLowerCase()} · <RelativeTime at={c.since} />
              {c.error && <span className="ml-1 font-mono text-xs opacity-90">— {c.error}</span>}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
