import { cn } from "@/components/ui/cn";
import { WarningIcon } from "@/components/ui/icons";
import { clampPercent, formatPercent } from "@/lib/format/percent";

interface WeightBarProps {
  /** Applied canary weight (what the controller set on the routers); null without traffic routing. */
  canary: number | null;
  stable: number | null;
  /** What the current step asks for; drawn as a tick when it differs from the applied weight. */
  requested: number | null;
  verified: boolean | null;
  /** Upstream's ActualWeight as a percentage (what `kubectl argo rollouts get rollout` prints); null when unknown. */
  actual?: number | null;
  /** Whether the Rollout configures traffic routers: then a missing weight means none was applied yet. */
  routed?: boolean;
  className?: string;
}

/** Half a percent is the smallest gap worth flagging: maxTrafficWeight rounding produces less. */
const DIFF_EPSILON = 0.5;

function describe({ canary, stable, requested, verified, actual = null }: WeightBarProps): string {
  const parts = [`Applied: canary ${formatPercent(canary)} / stable ${formatPercent(stable)}`];
  if (actual !== null) parts.push(`Actual weight (as kubectl argo rollouts): ${formatPercent(actual)}`);
  if (requested !== null) parts.push(`Requested by step: ${formatPercent(requested)}`);
  parts.push(
    verified === null ? "Verification: not implemented by the router" : verified ? "Verified by the router" : "NOT verified by the router",
  );
  return parts.join("\n");
}

/** The live canary/stable split of one rollout: applied weight as the bar, requested as a tick, unverified as a warning. */
export function WeightBar(props: WeightBarProps) {
  const { canary, requested, verified, actual = null, routed = false, className } = props;
  if (canary === null) {
    const none = routed ? "No weight applied yet by the traffic router" : "No traffic routing";
    const routing = requested === null ? none : `${none}; the steps request ${formatPercent(requested)}`;
    return (
      <span
        data-testid="canary-weight"
        data-weight=""
        data-actual={actual ?? ""}
        title={actual === null ? routing : `${routing}; actual weight (as kubectl argo rollouts) ${formatPercent(actual)}`}
        className={cn("text-slate-500 dark:text-slate-400", actual !== null && "text-sm tabular-nums", className)}
      >
        {actual === null || requested === null ? "—" : `actual ${formatPercent(actual)}`}
      </span>
    );
  }
  const showRequested = requested !== null && Math.abs(requested - canary) >= DIFF_EPSILON;
  return (
    <div
      data-testid="canary-weight"
      data-weight={canary}
      data-requested={requested ?? ""}
      data-verified={verified === null ? "" : String(verified)}
      data-actual={actual ?? ""}
      title={describe(props)}
      className={cn("flex items-center gap-2", className)}
    >
      <div className="relative h-2 w-full min-w-16 max-w-40 rounded-full bg-slate-200 dark:bg-slate-700">
        <div className="absolute inset-y-0 left-0 rounded-full bg-sky-500 dark:bg-sky-400" style={{ width: `${clampPercent(canary)}%` }} />
        {showRequested && (
          <div
            data-testid="requested-tick"
            className="absolute -inset-y-1 w-0.5 -translate-x-1/2 rounded bg-slate-900 dark:bg-white"
            style={{ left: `${clampPercent(requested)}%` }}
          />
        )}
      </div>
      <span className="w-12 shrink-0 text-right text-sm tabular-nums">{formatPercent(canary)}</span>
      <span className="inline-flex w-4 shrink-0 justify-center">
        {verified === false && (
          <span role="img" aria-label="Weight not verified by the router" className="text-amber-600 dark:text-amber-400">
            <WarningIcon className="size-4" />
          </span>
        )}
      </span>
    </div>
  );
}
