import { RelativeTime } from "@/components/ui/relative-time";
import { ScrollArea } from "@/components/ui/scroll-area";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { ConnectionBadge } from "./connection-badge";

/** The watches Rollscope keeps on a cluster, in the order an operator would check them. */
const WATCH_ORDER = ["rollouts", "events", "analysisruns", "configmap", "controllerPods"];

const WATCH_LABELS: Record<string, string> = {
  rollouts: "Rollouts",
  events: "Events",
  analysisruns: "AnalysisRuns",
  configmap: "Controller ConfigMap",
  controllerPods: "Controller pods",
};

export function WatchTable({ watches }: { watches: ClusterStateView["watches"] }) {
  const names = Object.keys(watches).sort((a, b) => {
    const ia = WATCH_ORDER.indexOf(a);
    const ib = WATCH_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  if (names.length === 0) return <p className="px-4 py-6 text-sm text-slate-500 dark:text-slate-400">No watches reported yet.</p>;
  return (
    <ScrollArea label="Watches">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-500 dark:text-slate-400">
          <tr>
            <th className="px-4 py-2 font-medium">Watch</th>
            <th className="px-4 py-2 font-medium">State</th>
            <th className="px-4 py-2 font-medium">Since</th>
            <th className="px-4 py-2 font-medium">Error</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {names.map((name) => {
            const watch = watches[name];
            return (
              <tr key={name} data-testid="watch-row" data-watch={name} data-status={watch.status}>
                <td className="px-4 py-2 font-medium">{WATCH_LABELS[name] ?? name}</td>
                <td className="px-4 py-2">
                  <ConnectionBadge connection={watch.status} />
                </td>
                <td className="px-4 py-2 text-slate-600 dark:text-slate-400">
                  <RelativeTime at={watch.since} />
                </td>
                <td className="px-4 py-2 font-mono text-xs break-all text-rose-700 dark:text-rose-300">{watch.error ?? ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}
