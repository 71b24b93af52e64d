import type { KubeObject } from "../store/object-store";
import { StoreError } from "../store/object-store";
import { getPauseCondition } from "./pause-context";
import {
  POD_HASH_LABEL,
  REVISION_ANNOTATION,
  SIM_ANALYSIS_OUTCOME,
  SIM_ANALYSIS_SECONDS,
  podHashOf,
  revisionOf,
  type ReconcileContext,
} from "./context";
import { T } from "./resource-types";
import { beforeStartingStep, currentStepOf } from "./steps";
import type { AnalysisRef, AnalysisRun, RolloutAnalysisRunStatus } from "./types";

const SUCCESSFUL_HISTORY_LIMIT = 5;
const UNSUCCESSFUL_HISTORY_LIMIT = 5;

function completed(phase: string | undefined): boolean {
  return phase === "Successful" || phase === "Failed" || phase === "Error" || phase === "Inconclusive";
}

/** `cancelAnalysisRuns`: merge-patch `{"spec":{"terminate":true}}` on runs that are still going. */
function cancel(ctx: ReconcileContext, runs: Array<AnalysisRun | undefined>): void {
  for (const ar of runs) {
    if (!ar || ar.spec.terminate || completed(ar.status?.phase)) continue;
    if (!ctx.deps.store.tryGet(T.analysisRuns, ar.metadata.namespace, ar.metadata.name)) continue;
    ctx.deps.client.update(
      T.analysisRuns,
      ar.metadata.namespace,
      ar.metadata.name,
      (draft) => {
        (draft.spec as AnalysisRun["spec"]).terminate = true;
      },
      { verb: "Patch" },
    );
  }
}

/** `needsNewAnalysisRun`. */
function needsNewAnalysisRun(ctx: ReconcileContext, current: AnalysisRun | undefined): boolean {
  if (!current) return true;
  const status = ctx.ro.status ?? {};
  if (status.controllerPause && !getPauseCondition(ctx.ro, "BlueGreenPause")) return current.status?.phase === "Inconclusive";
  return !!status.abortedAt;
}

function templateNotFound(name: string, clusterScope: boolean): string {
  return clusterScope ? `clusteranalysistemplate.argoproj.io "${name}" not found` : `analysistemplate.argoproj.io "${name}" not found`;
}

/** `createAnalysisRun` + `newAnalysisRunFromRollout`: `<rollout>-<podHash>-<revision>[-<infix>]`, with a collision counter. */
function createAnalysisRun(ctx: ReconcileContext, ref: AnalysisRef, infix: string, labels: Record<string, string>): AnalysisRun | string {
  const ro = ctx.ro;
  const ns = ro.metadata.namespace ?? "default";
  const podHash = podHashOf(ctx.newRS);
  const revision = String(revisionOf(ro));
  const metrics: AnalysisRun["spec"]["metrics"] = [];
  const args = new Map<string, string | undefined>();
  let templateOutcome: string | undefined;
  let templateSeconds: string | undefined;
  for (const tref of ref.templates ?? []) {
    const template: KubeObject | undefined = tref.clusterScope
      ? undefined
      : ctx.deps.store.tryGet(T.analysisTemplates, ns, tref.templateName);
    if (!template) return templateNotFound(tref.templateName, !!tref.clusterScope);
    const spec = (template.spec ?? {}) as { metrics?: AnalysisRun["spec"]["metrics"]; args?: Array<{ name: string; value?: string }> };
    metrics.push(...structuredClone(spec.metrics ?? []));
    for (const arg of spec.args ?? []) args.set(arg.name, arg.value);
    templateOutcome ??= template.metadata.annotations?.[SIM_ANALYSIS_OUTCOME];
    templateSeconds ??= template.metadata.annotations?.[SIM_ANALYSIS_SECONDS];
  }
  for (const arg of ref.args ?? []) {
    const from = arg.valueFrom as { podTemplateHashValue?: string } | undefined;
    if (from?.podTemplateHashValue === "Stable") args.set(arg.name, podHashOf(ctx.stableRS));
    else if (from?.podTemplateHashValue === "Latest") args.set(arg.name, podHashOf(ctx.newRS));
    else args.set(arg.name, arg.value);
  }
  const outcome = ro.metadata.annotations?.[SIM_ANALYSIS_OUTCOME] ?? templateOutcome ?? "Successful";
  const seconds = ro.metadata.annotations?.[SIM_ANALYSIS_SECONDS] ?? templateSeconds;
  const base = [ro.metadata.name, podHash, revision, ...(infix ? [infix] : [])].join("-");
  for (let collision = 0; collision < 100; collision++) {
    const name = collision === 0 ? base : `${base}.${collision}`;
    try {
      const created = ctx.deps.client.create(T.analysisRuns, ns, {
        apiVersion: "argoproj.io/v1alpha1",
        kind: "AnalysisRun",
        metadata: {
          name,
          namespace: ns,
          labels: { ...labels, ...(ro.spec.selector?.matchLabels ?? {}) },
          annotations: {
            [REVISION_ANNOTATION]: revision,
            [SIM_ANALYSIS_OUTCOME]: outcome,
            ...(seconds ? { [SIM_ANALYSIS_SECONDS]: seconds } : {}),
          },
          ownerReferences: [
            { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", name: ro.metadata.name, uid: ro.metadata.uid ?? "", controller: true },
          ],
        },
        spec: { metrics, args: [...args.entries()].map(([n, value]) => (value === undefined ? { name: n } : { name: n, value })) },
      });
      // No status yet: the analysis controller (AnalysisRunner) starts it on its own pass.
      return created as AnalysisRun;
    } catch (err) {
      if (err instanceof StoreError && err.reason === "AlreadyExists") continue;
      throw err;
    }
  }
  return `analysisruns.argoproj.io "${base}" already exists`;
}

/** The abort message upstream builds for a failed run: "<kind> analysis phase error/failed[: <run message>]". */
function failureMessage(kind: "Step-based" | "Background", ar: AnalysisRun): string {
  const message = `${kind} analysis phase error/failed`;
  return ar.status?.message ? `${message}: ${ar.status.message}` : message;
}

function applyOutcome(ctx: ReconcileContext, ar: AnalysisRun, kind: "Step-based" | "Background"): void {
  switch (ar.status?.phase) {
    case "Inconclusive":
      ctx.pause.addPauseCondition("InconclusiveAnalysisRun");
      break;
    case "Failed":
    case "Error":
      ctx.pause.addAbort(failureMessage(kind, ar));
      break;
    default:
  }
}

function reconcileStepBasedAnalysisRun(ctx: ReconcileContext): AnalysisRun | undefined | string {
  const { step, index } = currentStepOf(ctx.ro);
  const current = ctx.currentArs.step;
  const status = ctx.ro.status ?? {};
  if ((status.pauseConditions?.length ?? 0) > 0 || status.abort) return current;
  if (!step?.analysis || index === null) {
    cancel(ctx, [current]);
    return undefined;
  }
  if (needsNewAnalysisRun(ctx, current)) {
    return createAnalysisRun(ctx, step.analysis, String(index), {
      "rollout-type": "Step",
      "step-index": String(index),
      [POD_HASH_LABEL]: podHashOf(ctx.newRS),
    });
  }
  if (current) applyOutcome(ctx, current, "Step-based");
  return current;
}

function reconcileBackgroundAnalysisRun(ctx: ReconcileContext): AnalysisRun | undefined | string {
  const current = ctx.currentArs.background;
  const bg = ctx.ro.spec.strategy.canary?.analysis;
  const status = ctx.ro.status ?? {};
  if (!bg) {
    cancel(ctx, [current]);
    return undefined;
  }
  if (status.stableRS === status.currentPodHash || !status.stableRS || !status.currentPodHash || beforeStartingStep(ctx.ro))
    return undefined;
  if (getPauseCondition(ctx.ro, "InconclusiveAnalysisRun")) return current;
  if (needsNewAnalysisRun(ctx, current)) {
    return createAnalysisRun(ctx, bg, "", { "rollout-type": "Background", [POD_HASH_LABEL]: podHashOf(ctx.newRS) });
  }
  if (current) applyOutcome(ctx, current, "Background");
  return current;
}

function runStatus(ar: AnalysisRun | undefined): RolloutAnalysisRunStatus | undefined {
  if (!ar) return undefined;
  return { name: ar.metadata.name, status: ar.status?.phase ?? "", ...(ar.status?.message ? { message: ar.status.message } : {}) };
}

/** `emitAnalysisRunStatusChanges`: "Step Analysis Run 'x' Status New: 'Running' Previous: 'NoPreviousStatus'". */
function emitStatusChange(
  ctx: ReconcileContext,
  prev: RolloutAnalysisRunStatus | undefined,
  ar: AnalysisRun | undefined,
  arType: string,
): void {
  const phase = ar?.status?.phase;
  if (!ar || !phase) return;
  if (prev && !(prev.name === ar.metadata.name && prev.status !== phase)) return;
  const prevText = prev ? prev.status : "NoPreviousStatus";
  const type = phase === "Failed" || phase === "Error" ? "Warning" : "Normal";
  ctx.event(type, `AnalysisRun${phase}`, `${arType} Analysis Run '${ar.metadata.name}' Status New: '${phase}' Previous: '${prevText}'`);
}

/** Finds the runs named in status (upstream `GetCurrentAnalysisRunByType`). */
function loadCurrentAnalysisRuns(ctx: ReconcileContext): void {
  const runs = ctx.deps.cache.analysisRunsOf(ctx.key, ctx.ro.metadata.uid);
  const byName = (name: string | undefined) => (name ? runs.find((r) => r.metadata.name === name) : undefined);
  ctx.currentArs = {
    step: byName(ctx.ro.status?.canary?.currentStepAnalysisRunStatus?.name),
    background: byName(ctx.ro.status?.canary?.currentBackgroundAnalysisRunStatus?.name),
  };
}

/** Port of `reconcileAnalysisRuns` for canary step and background analysis. Returns an error string or null. */
export function reconcileAnalysisRuns(ctx: ReconcileContext): string | null {
  loadCurrentAnalysisRuns(ctx);
  const all = ctx.deps.cache.analysisRunsOf(ctx.key, ctx.ro.metadata.uid);
  const status = ctx.ro.status ?? {};
  const canaryStatus = ctx.newStatus.canary ?? (ctx.newStatus.canary = {});
  if (ctx.pause.isAborted() || status.promoteFull || !status.stableRS) {
    canaryStatus.currentStepAnalysisRunStatus = runStatus(ctx.currentArs.step);
    canaryStatus.currentBackgroundAnalysisRunStatus = runStatus(ctx.currentArs.background);
    cancel(ctx, all);
    return null;
  }
  const step = reconcileStepBasedAnalysisRun(ctx);
  if (typeof step === "string") return step;
  const background = reconcileBackgroundAnalysisRun(ctx);
  if (typeof background === "string") return background;
  ctx.currentArs = { step, background };
  canaryStatus.currentStepAnalysisRunStatus = runStatus(step);
  canaryStatus.currentBackgroundAnalysisRunStatus = runStatus(background);
  const current = new Set([step?.metadata.name, background?.metadata.name]);
  const others = all.filter((ar) => !current.has(ar.metadata.name));
  cancel(ctx, others);
  garbageCollect(ctx, others);
  emitStatusChange(ctx, status.canary?.currentStepAnalysisRunStatus, step, "Step");
  emitStatusChange(ctx, status.canary?.currentBackgroundAnalysisRunStatus, background, "Background");
  return null;
}

/** `FilterAnalysisRunsToDelete`: keeps the newest 5 successful and 5 unsuccessful completed runs. */
function garbageCollect(ctx: ReconcileContext, others: AnalysisRun[]): void {
  const done = others
    .filter((ar) => completed(ar.status?.phase))
    .sort((a, b) => (b.metadata.creationTimestamp ?? "").localeCompare(a.metadata.creationTimestamp ?? ""));
  const ok = done.filter((ar) => ar.status?.phase === "Successful").slice(SUCCESSFUL_HISTORY_LIMIT);
  const bad = done.filter((ar) => ar.status?.phase !== "Successful").slice(UNSUCCESSFUL_HISTORY_LIMIT);
  for (const ar of [...ok, ...bad]) ctx.deps.client.delete(T.analysisRuns, ar.metadata.namespace, ar.metadata.name);
}
