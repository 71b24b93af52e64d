"use client";

import type { ReactNode } from "react";
import { Badge, type Tone } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { ScrollArea } from "@/components/ui/scroll-area";
import { formatStepPositionWithCliIndex } from "@/lib/rollouts/step-position";
import type { PodInfoView, ReplicaSetInfoView, ReplicaSetRole, RolloutInfoView } from "@/lib/contracts/rollout-workload";

const ROLE_TONE: Record<ReplicaSetRole, Tone> = {
  stable: "green",
  canary: "blue",
  active: "green",
  preview: "violet",
  ping: "neutral",
  pong: "neutral",
};
const RS_STATUS_TONE: Record<string, Tone> = { Healthy: "green", Progressing: "blue", ScaledDown: "neutral", ReplicaFailure: "red" };

function podTone(status: string): Tone {
  if (status === "Running" || status === "Completed") return "green";
  if (status === "Pending" || status === "Terminating" || status === "ContainerCreating" || status.startsWith("Init:")) return "blue";
  return "red";
}

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The numbers `kubectl argo rollouts get rollout` prints above its tree, so the dashboard and the CLI agree. */
export function CliSummary({ info, maxTrafficWeight }: { info: RolloutInfoView; maxTrafficWeight: number }) {
  const unit = maxTrafficWeight === 100 ? "%" : `/${maxTrafficWeight}`;
  const active = info.replicaSets.find((rs) => rs.roles.includes("active"));
  const preview = info.replicaSets.find((rs) => rs.roles.includes("preview"));
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-2 px-4 py-3" aria-label="As kubectl argo rollouts get rollout shows it">
      <Figure label="Status" testId="cli-status">
        {info.status}
      </Figure>
      {info.strategy === "Canary" && (
        <>
          <Figure label="Step" testId="cli-step">
            {info.stepPosition ? formatStepPositionWithCliIndex(info.stepPosition) : "—"}
          </Figure>
          <Figure label="Set weight" testId="set-weight">
            {info.setWeight === null ? "—" : `${info.setWeight}${unit}`}
          </Figure>
          <Figure label="Actual weight" testId="actual-weight">
            {info.actualWeight === null ? "—" : `${info.actualWeight}${unit}`}
          </Figure>
        </>
      )}
      <Figure label="Images" testId="cli-images">
        {info.images.length === 0 ? (
          "—"
        ) : (
          <ul className="flex flex-col gap-0.5">
            {info.images.map((img) => (
              <li key={img.image} data-testid="cli-image" className="font-mono text-xs break-all">
                {img.image}
                {img.tags.length > 0 && <span className="text-slate-500 dark:text-slate-400"> ({img.tags.join(", ")})</span>}
              </li>
            ))}
          </ul>
        )}
      </Figure>
      {info.strategy === "BlueGreen" && (
        <>
          <Figure label="Active" testId="active-replicas">
            {active ? `${active.ready}/${active.desired} ready (rev ${active.revision})` : "—"}
          </Figure>
          <Figure label="Preview" testId="preview-replicas">
            {preview ? `${preview.ready}/${preview.desired} ready (rev ${preview.revision})` : "none"}
          </Figure>
        </>
      )}
    </dl>
  );
}

function PodRow({ pod, now }: { pod: PodInfoView; now: number }) {
  return (
    <li data-testid="pod" data-pod={pod.name} data-status={pod.status} className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs">
      <span className="font-mono break-all">{pod.name}</span>
      <Badge tone={podTone(pod.status)}>{pod.status}</Badge>
      <span className="tabular-nums" title="ready containers">
        {pod.ready} ready
      </span>
      <span className="tabular-nums">{pod.restarts} restarts</span>
      <RelativeTime at={pod.createdAt} now={now} />
      <span className="text-slate-500 dark:text-slate-400">{pod.node ?? "not scheduled"}</span>
    </li>
  );
}

function ReplicaSetRow({ rs, now, action }: { rs: ReplicaSetInfoView; now: number; action?: ReactNode }) {
  return (
    <tr data-testid="replicaset-row" data-revision={rs.revision} data-roles={rs.roles.join(" ")} className="align-top">
      <td className="px-4 py-2 font-medium tabular-nums">{rs.revision}</td>
      <td className="px-4 py-2">
        <div className="font-mono text-xs break-all">{rs.name}</div>
        <div className="mt-1 flex flex-wrap gap-1">
          {rs.roles.map((role) => (
            <Badge key={role} tone={ROLE_TONE[role]}>
              {role}
            </Badge>
          ))}
          <Badge tone={RS_STATUS_TONE[rs.status] ?? "neutral"}>{rs.status}</Badge>
        </div>
      </td>
      <td className="px-4 py-2 font-mono text-xs break-all">{rs.images.join(", ")}</td>
      <td className="px-4 py-2 tabular-nums" title="desired / ready / available">
        {rs.desired} / {rs.ready} / {rs.available}
      </td>
      <td className="px-4 py-2">
        {rs.pods.length === 0 ? (
          <span className="text-slate-500 dark:text-slate-400">no pods</span>
        ) : (
          <ul className="flex flex-col gap-1">
            {rs.pods.map((pod) => (
              <PodRow key={pod.name} pod={pod} now={now} />
            ))}
          </ul>
        )}
      </td>
      <td className="px-4 py-2">{action}</td>
    </tr>
  );
}

/** Every ReplicaSet of the Rollout, newest revision first, with its role and its Pods; `actionFor` adds a per-revision button. */
export function ReplicaSetTable({
  info,
  now,
  actionFor,
}: {
  info: RolloutInfoView;
  now: number;
  actionFor?: (rs: ReplicaSetInfoView) => ReactNode;
}) {
  return (
    <ScrollArea label="ReplicaSets and pods by revision">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-500 dark:text-slate-400">
          <tr>
            <th className="px-4 py-2 font-medium">Revision</th>
            <th className="px-4 py-2 font-medium">ReplicaSet</th>
            <th className="px-4 py-2 font-medium">Images</th>
            <th className="px-4 py-2 font-medium">Desired / ready / available</th>
            <th className="px-4 py-2 font-medium">Pods</th>
            <th className="px-4 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {info.replicaSets.map((rs) => (
            <ReplicaSetRow key={rs.name} rs={rs} now={now} action={actionFor?.(rs)} />
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

const EXPERIMENT_TONE: Record<string, Tone> = {
  Successful: "green",
  Running: "blue",
  Pending: "neutral",
  Failed: "red",
  Error: "red",
  Inconclusive: "amber",
};

/**
 * The Rollout's Experiments as `kubectl argo rollouts get rollout` lists them under `Σ`: each with its phase, its
 * ReplicaSets (template name, images and pods) and its AnalysisRuns.
 */
export function ExperimentList({ experiments, now }: { experiments: RolloutInfoView["experiments"]; now: number }) {
  return (
    <ul className="flex flex-col divide-y divide-slate-100 dark:divide-slate-800" data-testid="experiments">
      {experiments.map((ex) => (
        <li
          key={ex.name}
          data-testid="experiment"
          data-experiment={ex.name}
          data-status={ex.status}
          className="flex flex-col gap-1.5 px-4 py-2"
        >
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span aria-hidden className="font-semibold text-slate-500 dark:text-slate-400">
              Σ
            </span>
            <span className="font-mono text-xs break-all">{ex.name}</span>
            <Badge tone={EXPERIMENT_TONE[ex.status] ?? "neutral"}>{ex.status || "unknown"}</Badge>
            {ex.revision > 0 && <span className="text-xs text-slate-500 dark:text-slate-400">rev {ex.revision}</span>}
            <RelativeTime at={ex.createdAt} now={now} className="text-xs text-slate-500 dark:text-slate-400" />
          </div>
          {ex.message && <p className="text-xs text-slate-600 dark:text-slate-400">{ex.message}</p>}
          {ex.replicaSets.length > 0 && (
            <ul className="flex flex-col gap-1 pl-5">
              {ex.replicaSets.map((rs) => (
                <li
                  key={rs.name}
                  data-testid="experiment-replicaset"
                  data-template={rs.template ?? ""}
                  className="flex flex-col gap-0.5 text-xs"
                >
                  <span className="flex flex-wrap items-center gap-x-2">
                    <span className="font-mono break-all">{rs.name}</span>
                    {rs.template && <Badge tone="violet">Σ:{rs.template}</Badge>}
                    <Badge tone={RS_STATUS_TONE[rs.status] ?? "neutral"}>{rs.status}</Badge>
                    <span className="tabular-nums" title="desired / ready / available">
                      {rs.desired} / {rs.ready} / {rs.available}
                    </span>
                  </span>
                  <span className="font-mono break-all text-slate-600 dark:text-slate-300" data-testid="experiment-images">
                    {rs.images.join(", ")}
                  </span>
                  {rs.pods.length > 0 && (
                    <ul className="flex flex-col gap-0.5 pl-3">
                      {rs.pods.map((pod) => (
                        <PodRow key={pod.name} pod={pod} now={now} />
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
          {ex.analysisRuns.length > 0 && (
            <ul className="flex flex-col gap-0.5 pl-5 text-xs">
              {ex.analysisRuns.map((run) => (
                <li key={run.name} data-testid="experiment-analysisrun" className="flex flex-wrap items-center gap-x-2">
                  <span aria-hidden className="text-slate-500 dark:text-slate-400">
                    α
                  </span>
                  <span className="font-mono break-all">{run.name}</span>
                  <Badge tone={EXPERIMENT_TONE[run.status] ?? "neutral"}>{run.status || "unknown"}</Badge>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
