import Link from "next/link";
import { RolloutActions } from "@/components/actions/rollout-actions";
import { ConnectionBadge } from "@/components/clusters/connection-badge";
import { describeConnection } from "@/components/clusters/cluster-chip";
import { Badge } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import { useNow } from "@/components/ui/use-now";
import { formatDuration } from "@/lib/format/duration";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import type { FleetRollout } from "@/lib/contracts/rollout-detail";
import { clusterHref, overviewHref, rolloutAuditHref } from "@/lib/format/hrefs";
import { attentionLabel } from "@/lib/overview/attention";
import { AttentionFindingLink } from "./attention-finding-link";
import { PhaseBadge } from "./phase-badge";
import { RouterList } from "./router-list";
import { LongText } from "@/components/ui/long-text";

const STRATEGY_LABEL = { canary: "Canary", blueGreen: "Blue-green", none: "No strategy" } as const;

function Field({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={cn("flex min-w-0 flex-col gap-0.5", className)}>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

/** `status.duration`: how long this revision's rollout has run (or ran), its manual pauses and how it ended. */
function RolloutDuration({ duration }: { duration: NonNullable<FleetRollout["duration"]> }) {
  const now = useNow(10_000);
  const end = duration.finishedAt ? Date.parse(duration.finishedAt) : now;
  const seconds = Math.max(0, (end - Date.parse(duration.startedAt)) / 1000);
  const paused = duration.manualPauseSeconds > 0 ? ` (${formatDuration(duration.manualPauseSeconds)} manually paused)` : "";
  return (
    <span
      data-testid="rollout-duration"
      className="tabular-nums"
      title={`started ${duration.startedAt}${duration.finishedAt ? `, finished ${duration.finishedAt}` : ""}`}
    >
      {formatDuration(seconds)}
      {paused}
      {duration.completionStatus ? ` · ${duration.completionStatus}` : duration.finishedAt ? "" : " · running"}
    </span>
  );
}

/** Identity, phase and where the rollout runs, with the promote/abort actions the signed-in user may take. */
export function RolloutHeader({ rollout: r, cluster }: { rollout: FleetRollout; cluster: ClusterStateView }) {
  const namespace = r.namespace ?? "";
  return (
    <header className="flex flex-col gap-4" data-testid="rollout-header">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500 dark:text-slate-400">
        <ol className="flex flex-wrap items-center gap-1.5 wrap-anywhere">
          <li>
            <Link href="/" className={cn("hover:underline", focusRing)}>
              Rollouts
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li>
            <Link href={clusterHref(r.cluster)} className={cn("hover:underline", focusRing)}>
              {r.cluster}
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li>
            <Link href={overviewHref({ cluster: r.cluster, ns: namespace })} className={cn("hover:underline", focusRing)}>
              {namespace}
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li aria-current="page" className="text-slate-700 dark:text-slate-300">
            {r.name}
          </li>
        </ol>
      </nav>

      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere" data-testid="rollout-name">
              {r.name}
            </h1>
            <PhaseBadge phase={r.phase} message={r.message} />
            {r.aborted && <Badge tone="red">Aborted</Badge>}
            {r.promoteFull && <Badge tone="violet">Full promotion requested</Badge>}
          </div>
          {r.message && (
            <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="phase-message">
              <LongText text={r.message} />
            </p>
          )}
        </div>
        <div data-slot="rollout-actions" className="ml-auto flex max-w-full min-w-0 items-center gap-2">
          <RolloutActions cluster={r.cluster} namespace={namespace} name={r.name} />
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 wrap-anywhere md:grid-cols-4 xl:grid-cols-6 2xl:grid-cols-8">
        <Field label="Namespace">{namespace}</Field>
        <Field label="Cluster">
          <span className="flex flex-wrap items-center gap-2">
            <Link href={clusterHref(r.cluster)} className={cn("font-medium text-sky-700 hover:underline dark:text-sky-300", focusRing)}>
              {r.cluster}
            </Link>
            <ConnectionBadge connection={cluster.connection} title={describeConnection(cluster)} />
          </span>
        </Field>
        <Field label="Revision">
          <span data-testid="revision" className="tabular-nums">
            {r.revision ?? "—"}
          </span>
        </Field>
        <Field label="Strategy">{STRATEGY_LABEL[r.strategy]}</Field>
        <Field label="Traffic routers">
          <RouterList routers={r.trafficRouters} />
        </Field>
        <Field label="Replicas">
          {r.strategy === "blueGreen" ? (
            // Active and preview each run the desired count: their sum is not a shortfall (per stack: Revisions below).
            <span
              className="tabular-nums"
              data-testid="blue-green-replicas"
              title="Each of the active and preview ReplicaSets runs the desired count"
            >
              {r.replicas.desired} per stack
              <span className="text-slate-500 dark:text-slate-400">
                {" "}
                · {r.replicas.current} pods in active and preview · {r.replicas.available} available
              </span>
            </span>
          ) : (
            <span className="tabular-nums" title="ready / desired (current, updated, available)">
              {r.replicas.ready}/{r.replicas.desired} ready
              <span className="text-slate-500 dark:text-slate-400">
                {" "}
                · {r.replicas.updated} updated · {r.replicas.available} available
              </span>
            </span>
          )}
        </Field>
        <Field label="Last change">
          <RelativeTime at={r.lastChangedAt} />
        </Field>
        <Field label="Audit">
          <Link
            href={rolloutAuditHref(r.cluster, namespace, r.name)}
            data-testid="rollout-audit-link"
            className={cn("text-sky-700 hover:underline dark:text-sky-300", focusRing)}
          >
            Actions on this rollout
          </Link>
        </Field>
        {r.duration && (
          <Field label="Duration">
            <RolloutDuration duration={r.duration} />
          </Field>
        )}
        {r.pluginSteps.length > 0 && (
          <Field label="Step plugins">
            <span className="font-mono text-xs">{r.pluginSteps.join(", ")}</span>
          </Field>
        )}
        <Field label={r.images.length > 1 ? "Images" : "Image"} className="col-span-2 md:col-span-4 xl:col-span-6 2xl:col-span-8">
          <ul className="flex flex-col gap-0.5" data-testid="images">
            {r.images.map((img) => (
              <li key={img.container} className="flex min-w-0 gap-2 font-mono text-xs">
                <span className="text-slate-500 dark:text-slate-400">{img.container}</span>
                <span className="break-all">{img.image ?? "—"}</span>
              </li>
            ))}
            {r.images.length === 0 && <li className="text-slate-500 dark:text-slate-400">—</li>}
          </ul>
        </Field>
      </dl>

      {(r.attention.length > 0 || r.parseError) && (
        <ul className="flex flex-col gap-1" aria-label="Needs attention">
          {r.parseError && (
            <li className="rounded-md border border-rose-300 bg-rose-50 px-3 py-1.5 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-200">
              <span className="font-semibold">Partly unreadable:</span> <span className="font-mono text-xs">{r.parseError}</span>
            </li>
          )}
          {r.attention.map((a) => (
            <li
              key={`${a.code}:${a.message}`}
              data-testid="rollout-attention"
              data-code={a.code}
              className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-100"
            >
              <span className="font-semibold">{attentionLabel(a.code)}:</span> <LongText text={a.message} />{" "}
              <AttentionFindingLink rollout={r} reason={a} />
            </li>
          ))}
        </ul>
      )}
    </header>
  );
}
