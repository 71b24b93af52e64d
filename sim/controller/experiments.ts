import { podHashOf, revisionOf, type ReconcileContext } from "./context";
import { durationSeconds } from "./duration";
import type { K8sClient } from "./k8s-client";
import { T } from "./resource-types";
import type { SimClock } from "./sim-clock";
import { currentStepOf } from "./steps";
import type { KubeObject } from "../store/object-store";
import { fnv32a } from "./prng";

const POD_TEMPLATE_HASH = "rollouts-pod-template-hash";

/** Experiments without a duration end after this much simulated time. */
const DEFAULT_EXPERIMENT_SECONDS = 60;

export function experimentPhase(ex: KubeObject | undefined): string | undefined {
  return (ex?.status as { phase?: string } | undefined)?.phase;
}

/**
 * A minimal `reconcileExperiments`: an experiment step creates `<rollout>-<hash>-<revision>-<step>` (Running) and,
 * per template, a ReplicaSet `<experiment>-<template>` it owns (the stable or canary pod template, as `specRef`
 * says; annotated with the experiment's and the template's names, as upstream's experiment controller does), so its
 * pods run the images the CLI lists with `Σ:<template>`. The step completes when it is Successful; leaving the step
 * or aborting terminates it; an ended experiment scales its ReplicaSets to zero.
 */
export function reconcileExperiments(ctx: ReconcileContext): KubeObject | undefined {
  const ro = ctx.ro;
  const ns = ro.metadata.namespace ?? "default";
  const canaryStatus = ctx.newStatus.canary ?? (ctx.newStatus.canary = {});
  const currentName = ro.status?.canary?.currentExperiment;
  const current = currentName
    ? ctx.deps.cache.experimentsOf(ctx.key, ctx.ro.metadata.uid).find((e) => e.metadata.name === currentName)
    : undefined;
  const { step, index } = currentStepOf(ro);
  const terminate = (ex: KubeObject | undefined) => {
    const phase = experimentPhase(ex);
    if (!ex || (phase && phase !== "Running" && phase !== "Pending")) return;
    ctx.deps.client.update(
      T.experiments,
      ns,
      ex.metadata.name,
      (draft) => {
        draft.spec = { ...((draft.spec as Record<string, unknown>) ?? {}), terminate: true };
      },
      { verb: "Patch" },
    );
  };
  if (ctx.pause.isAborted() || ro.status?.promoteFull || !step?.experiment || index === null) {
    terminate(current);
    delete canaryStatus.currentExperiment;
    return undefined;
  }
  if (current) {
    if (experimentPhase(current) === "Failed") ctx.pause.addAbort(`Experiment '${current.metadata.name}' failed`);
    canaryStatus.currentExperiment = current.metadata.name;
    return current;
  }
  const name = `${ro.metadata.name}-${podHashOf(ctx.newRS)}-${revisionOf(ro)}-${index}`;
  let created = ctx.deps.store.tryGet(T.experiments, ns, name);
  if (!created) {
    ctx.deps.client.create(T.experiments, ns, {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "Experiment",
      metadata: {
        name,
        namespace: ns,
        labels: { "rollouts-pod-template-hash": podHashOf(ctx.newRS) },
        ownerReferences: [
          { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", name: ro.metadata.name, uid: ro.metadata.uid ?? "", controller: true },
        ],
      },
      spec: { duration: step.experiment.duration, templates: step.experiment.templates ?? [], analyses: step.experiment.analyses ?? [] },
    });
    created = ctx.deps.client.update(
      T.experiments,
      ns,
      name,
      (draft) => {
        draft.status = {
          phase: "Running",
          availableAt: ctx.now,
          templateStatuses: (step.experiment?.templates ?? []).map((t) => ({ name: t.name, status: "Running" })),
        };
      },
      { subresource: "status" },
    );
    ctx.deps.precise.set(`${created.metadata.uid}/started`, ctx.deps.clock.now());
    createTemplateReplicaSets(ctx, created);
    ctx.event("Normal", "ExperimentCreated", `Created Experiment '${name}'`);
  }
  canaryStatus.currentExperiment = name;
  return created;
}

interface ExperimentTemplate {
  name: string;
  specRef?: string;
  replicas?: number;
}

/** The ReplicaSets of an experiment's templates, owned by the Experiment (by uid). */
function createTemplateReplicaSets(ctx: ReconcileContext, experiment: KubeObject): void {
  const ns = experiment.metadata.namespace ?? "default";
  const templates = ((experiment.spec as { templates?: ExperimentTemplate[] } | undefined)?.templates ?? []).filter((t) => t.name);
  for (const t of templates) {
    const source = t.specRef === "stable" ? (ctx.stableRS ?? ctx.newRS) : (ctx.newRS ?? ctx.stableRS);
    const template = source?.spec?.template;
    if (!template) continue;
    const name = `${experiment.metadata.name}-${t.name}`;
    if (ctx.deps.store.tryGet(T.replicaSets, ns, name)) continue;
    const hash = fnv32a(name).toString(16);
    const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash };
    ctx.deps.client.create(T.replicaSets, ns, {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: {
        name,
        namespace: ns,
        labels,
        annotations: { "experiment.argoproj.io/name": experiment.metadata.name, "experiment.argoproj.io/template-name": t.name },
        ownerReferences: [
          {
            apiVersion: "argoproj.io/v1alpha1",
            kind: "Experiment",
            name: experiment.metadata.name,
            uid: experiment.metadata.uid ?? "",
            controller: true,
          },
        ],
      },
      spec: {
        replicas: t.replicas ?? 1,
        selector: { matchLabels: labels },
        template: { ...template, metadata: { ...(template.metadata ?? {}), labels } },
      },
    });
  }
}

/** Scales an ended experiment's ReplicaSets to zero. */
function scaleDownTemplateReplicaSets(client: K8sClient, experiment: KubeObject): void {
  const ns = experiment.metadata.namespace ?? "default";
  for (const rs of client.store.list(T.replicaSets, { namespace: ns }).items) {
    if (!rs.metadata.ownerReferences?.some((ref) => ref.uid === experiment.metadata.uid)) continue;
    if ((rs.spec as { replicas?: number } | undefined)?.replicas === 0) continue;
    client.update(T.replicaSets, ns, rs.metadata.name, (draft) => {
      draft.spec = { ...((draft.spec as Record<string, unknown>) ?? {}), replicas: 0 };
    });
  }
}

/** Ends running experiments after their duration (or when terminated); returns epoch ms of the next end. */
export function advanceExperiment(client: K8sClient, clock: SimClock, precise: Map<string, number>, exKey: string): number | null {
  const [ns, name] = exKey.split("/");
  const ex = client.store.tryGet(T.experiments, ns, name);
  if (!ex || experimentPhase(ex) !== "Running") return null;
  const spec = (ex.spec ?? {}) as { duration?: string | number; terminate?: boolean };
  const started = precise.get(`${ex.metadata.uid}/started`) ?? Date.parse(ex.metadata.creationTimestamp ?? "");
  const seconds = durationSeconds(spec.duration) ?? DEFAULT_EXPERIMENT_SECONDS;
  const done = spec.terminate || clock.simSecondsSince(started) >= seconds;
  if (!done) return started + clock.realMs(seconds);
  client.update(
    T.experiments,
    ns,
    name,
    (draft) => {
      const status = (draft.status ?? {}) as Record<string, unknown>;
      draft.status = { ...status, phase: "Successful", message: spec.terminate ? "Experiment terminated" : "Experiment completed" };
    },
    { subresource: "status" },
  );
  scaleDownTemplateReplicaSets(client, ex);
  return null;
}
