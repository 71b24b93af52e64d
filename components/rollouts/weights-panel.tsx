import { cn } from "@/components/ui/cn";
import { CheckIcon, InfoIcon, XIcon } from "@/components/ui/icons";
import type { FleetRollout } from "@/lib/contracts/rollout-detail";
import { clampPercent, formatPercent } from "@/lib/format/percent";

function Row({ label, hint, children, testId }: { label: string; hint?: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-1.5" data-testid={testId}>
      <dt className="shrink-0 text-sm text-slate-600 dark:text-slate-400" title={hint}>
        {label}
      </dt>
      <dd className="min-w-0 text-right text-sm wrap-anywhere">{children}</dd>
    </div>
  );
}

/** The router's verdict on the applied weight: ✓ verified, ✗ not verified, or not implemented (field absent). */
function VerifiedState({ verified }: { verified: boolean | null }) {
  const text = verified === null ? "not implemented" : verified ? "verified" : "not verified";
  return (
    <span
      data-testid="weight-verified"
      data-verified={verified === null ? "null" : String(verified)}
      className={cn(
        "inline-flex items-center gap-1 font-medium",
        verified === true && "text-emerald-700 dark:text-emerald-400",
        verified === false && "text-rose-700 dark:text-rose-400",
        verified === null && "text-slate-500 dark:text-slate-400",
      )}
    >
      {verified === true && <CheckIcon className="size-4" />}
      {verified === false && <XIcon className="size-4" />}
      {verified === null && <InfoIcon className="size-4" />}
      {text}
    </span>
  );
}

function ServiceHint({ service, hash }: { service: string | null; hash: string | null }) {
  if (!service && !hash) return null;
  return (
    <span className="block font-mono text-[11px] text-slate-500 dark:text-slate-400">{[service, hash].filter(Boolean).join(" · ")}</span>
  );
}

/**
 * Current weights as numbers: what the steps request, what the controller applied on the routers
 * (`status.canary.weights`), and whether the router verified it. Measured traffic lives on the chart.
 */
export function WeightsPanel({ rollout: r }: { rollout: FleetRollout }) {
  if (r.strategy === "blueGreen" && r.blueGreen) {
    const bg = r.blueGreen;
    return (
      <dl className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="weights">
        <Row label="Active service">
          <span className="font-mono text-xs">{bg.activeService ?? "—"}</span>
          <ServiceHint service={null} hash={bg.activeSelector} />
        </Row>
        <Row label="Preview service">
          <span className="font-mono text-xs">{bg.previewService ?? "—"}</span>
          <ServiceHint service={null} hash={bg.previewSelector} />
        </Row>
        <Row label="Auto-promotion">
          {bg.autoPromotionEnabled
            ? bg.autoPromotionSeconds
              ? `after ${bg.autoPromotionSeconds}s`
              : "immediately"
            : "off (manual promote)"}
        </Row>
      </dl>
    );
  }

  const applied = r.appliedWeights;
  const requested = r.requestedWeight;
  // After the last step upstream reports the maximum as requested while the router is back at 0% canary.
  const complete = r.stepProgress.isComplete;
  const units = r.maxTrafficWeight !== 100 ? ` of ${r.maxTrafficWeight}` : "";
  return (
    <div className="flex flex-col gap-3" data-testid="weights">
      {applied && (
        <div className="flex flex-col gap-1">
          <div className="relative h-3 overflow-visible rounded-full bg-slate-200 dark:bg-slate-700" aria-hidden>
            {/* The fill slides (a transform, drawn by the compositor) rather than grows: a width transition relaid and
                repainted the page on every frame of every change, which on a busy detail page were tasks of 50–160 ms. */}
            <div className="absolute inset-0 overflow-hidden rounded-full">
              <div
                data-testid="applied-weight-fill"
                className="absolute inset-0 rounded-full bg-sky-500 transition-transform duration-500 motion-reduce:transition-none dark:bg-sky-400"
                style={{ transform: `translateX(${clampPercent(applied.canaryPercent) - 100}%)` }}
              />
            </div>
            {requested && !complete && Math.abs(requested.percent - applied.canaryPercent) >= 0.5 && (
              <div
                className="absolute -inset-y-1 w-0.5 -translate-x-1/2 rounded bg-slate-900 dark:bg-white"
                style={{ left: `${clampPercent(requested.percent)}%` }}
              />
            )}
          </div>
          <div className="flex justify-between text-xs text-slate-500 dark:text-slate-400">
            <span>canary</span>
            <span>stable</span>
          </div>
        </div>
      )}
      <dl className="divide-y divide-slate-100 dark:divide-slate-800">
        <Row label="Requested" hint="The weight the current step asks for (setWeight)" testId="requested-weight">
          <span className="text-base font-semibold tabular-nums" data-value={requested?.percent ?? ""}>
            {formatPercent(requested?.percent ?? null)}
          </span>
          {requested && units && (
            <span className="block text-xs text-slate-500 dark:text-slate-400 tabular-nums">{`${requested.weight}${units}`}</span>
          )}
          {requested && complete && (
            <span className="block text-xs text-slate-500 dark:text-slate-400">all steps done; stable runs this revision</span>
          )}
        </Row>
        {applied ? (
          <>
            <Row
              label="Applied canary"
              hint="What the controller set on the traffic routers (status.canary.weights)"
              testId="applied-weight"
            >
              <span className="text-base font-semibold tabular-nums" data-value={applied.canaryPercent}>
                {formatPercent(applied.canaryPercent)}
              </span>
              <ServiceHint service={applied.canary.serviceName} hash={applied.canary.podTemplateHash} />
            </Row>
            <Row label="Applied stable" testId="stable-weight">
              <span className="text-base font-semibold tabular-nums" data-value={applied.stablePercent}>
                {formatPercent(applied.stablePercent)}
              </span>
              <ServiceHint service={applied.stable.serviceName} hash={applied.stable.podTemplateHash} />
            </Row>
            {applied.additional.map((a) => (
              <Row key={`${a.serviceName}-${a.podTemplateHash}`} label="Experiment" testId="additional-weight">
                <span className="tabular-nums">{formatPercent(a.percent)}</span>
                <ServiceHint service={a.serviceName} hash={a.podTemplateHash} />
              </Row>
            ))}
            <Row label="Router verification" hint="VerifyWeight: true, false, or absent when the router does not implement it">
              <VerifiedState verified={applied.verified} />
            </Row>
          </>
        ) : (
          <Row label="Applied" testId="applied-weight">
            <span className="text-slate-500 dark:text-slate-400" data-value="">
              {r.trafficRouters.length > 0
                ? `— none yet: ${r.trafficRouters.map((t) => t.name).join(", ")} has not set any weight`
                : "— no traffic routing"}
            </span>
          </Row>
        )}
      </dl>
    </div>
  );
}
