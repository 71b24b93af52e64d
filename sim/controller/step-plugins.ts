import type { ReconcileContext } from "./context";
import { currentStepOf } from "./steps";
import type { StepPluginStatus } from "./types";

/** How long a simulated step plugin's Run takes, in simulated seconds. */
const STEP_PLUGIN_RUN_SECONDS = 15;
/** `defaultControllerErrorBackoff` in `rollout/stepplugin.go`. */
const ERROR_BACKOFF_SECONDS = 30;

function find(statuses: StepPluginStatus[], index: number): StepPluginStatus | undefined {
  return statuses.find((s) => s.index === index && s.operation === "Run");
}

/**
 * A reduced port of `rollout/stepplugin.go`: a `plugin` step runs for a while (Running → Successful) and records
 * `status.canary.stepPluginStatuses`. An unregistered step plugin is a ReconciliationError event and a retry.
 */
export function reconcileStepPlugin(ctx: ReconcileContext): void {
  const canaryStatus = ctx.newStatus.canary ?? (ctx.newStatus.canary = {});
  if (ctx.pause.isAborted()) return;
  const { step, index } = currentStepOf(ctx.ro);
  if (!step?.plugin || index === null) return;
  if (ctx.ro.status?.phase !== "Progressing") return;
  const name = step.plugin.name;
  const item = ctx.deps.pluginConfig.stepPlugins.find((p) => p.name === name);
  if (!item) {
    ctx.stepPluginError = true;
    ctx.event(
      "Warning",
      "ReconciliationError",
      `Reconciliation failed with error: could not create step plugin at index ${index} : unable to start plugin system: unable to find plugin (${name}): plugin ${name} not configured in configmap`,
    );
    ctx.requeueAfter(ERROR_BACKOFF_SECONDS);
    return;
  }
  const statuses = canaryStatus.stepPluginStatuses ?? [];
  canaryStatus.stepPluginStatuses = statuses;
  const now = ctx.now;
  const existing = find(statuses, index);
  if (item.disabled) {
    if (!existing)
      statuses.push({
        index,
        name,
        operation: "Run",
        phase: "Successful",
        disabled: true,
        message: "Step is disabled",
        startedAt: now,
        updatedAt: now,
        finishedAt: now,
        executions: 0,
      });
    return;
  }
  if (!existing) {
    statuses.push({ index, name, operation: "Run", phase: "Running", startedAt: now, updatedAt: now, executions: 1 });
    ctx.rememberPrecise(`plugin-step-${index}`, now);
    ctx.event("Normal", "StepPluginTransition", `Step plugin ${name} run for step ${index + 1} is Running`);
    ctx.requeueAfter(STEP_PLUGIN_RUN_SECONDS);
    return;
  }
  if (existing.phase !== "Running") return;
  const elapsed = ctx.elapsedSince(`plugin-step-${index}`, existing.startedAt ?? now);
  if (elapsed >= STEP_PLUGIN_RUN_SECONDS) {
    existing.phase = "Successful";
    existing.updatedAt = now;
    existing.finishedAt = now;
  } else ctx.requeueAfter(STEP_PLUGIN_RUN_SECONDS - elapsed);
}

export function isStepPluginCompleted(ctx: ReconcileContext, index: number): boolean {
  if (ctx.stepPluginError) return false;
  const status = find(ctx.newStatus.canary?.stepPluginStatuses ?? [], index);
  return !!status && (status.disabled === true || status.phase === "Successful" || status.phase === "Failed");
}
