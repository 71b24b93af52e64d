import "server-only";
import type { KubernetesObject } from "@kubernetes/client-node";
import { parsePluginConfigMap } from "@/lib/plugins/config";
import { argoRolloutsConfigMapOf, readArgoRolloutsConfigMap } from "@/lib/plugins/registry";
import {
  DEFAULT_PROGRESS_DEADLINE_SECONDS,
  deriveAttentionSignals,
  progressSignature,
  type WarningEventSignal,
} from "@/lib/rollouts/attention-signals";
import type { AttentionReason, FleetRollout } from "@/lib/rollouts/view-model";
import type { KeptEvent } from "./kept-event";
import { StringPool } from "./string-pool";
import { rolloutKey } from "./types";

export interface AttentionSettings {
  /** A Progressing Rollout whose state has not changed for this long needs attention. */
  noProgressMinutes: number;
}

export const DEFAULT_ATTENTION_SETTINGS: AttentionSettings = { noProgressMinutes: 10 };

type Registered = { trafficRouter: ReadonlySet<string>; step: ReadonlySet<string> };

/**
 * One cluster's inputs to the attention reasons a Rollout object cannot tell by itself (see
 * lib/rollouts/attention-signals.ts): the plugins its argo-rollouts-config registers, the Warning events about each
 * Rollout, and when each Rollout last made progress.
 */
export class RolloutSignals {
  /** Per Rollout key, its recent Warning events by event object key. */
  private readonly warnings = new Map<string, Map<string, WarningEventSignal>>();
  private readonly progress = new Map<string, { signature: string; at: number }>();
  /** Many Rollouts stand alike (same phase, step and weights): one copy of each signature. */
  private readonly signatures = new StringPool();
  /** The reasons the Rollout object gives by itself, kept so re-deriving does not need the object parsed again. */
  private readonly own = new Map<string, AttentionReason[]>();
  private registry: { resourceVersion: string | undefined; registered: Registered } | null = null;

  constructor(
    private readonly cluster: string,
    private readonly settings: AttentionSettings,
    /** argo-rollouts-config's watch cache; null until it has been listed. */
    private readonly configMaps: () => KubernetesObject[] | null,
  ) {}

  /**
   * The view with every reason: `fresh` when it was just built from the object (its reasons are then the object's
   * own); the same view when nothing changed. `progressDeadlineSeconds`: the Rollout's (600 when unknown).
   */
  apply(view: FleetRollout, progressDeadlineSeconds: number | undefined, now: number, fresh: boolean): FleetRollout {
    if (fresh || !this.own.has(view.key)) this.own.set(view.key, view.attention);
    const own = this.own.get(view.key) ?? [];
    const progressing = view.conditions.find((c) => c.type === "Progressing");
    const signals = deriveAttentionSignals({
      view,
      cluster: this.cluster,
      registered: this.registered(),
      warnings: [...(this.warnings.get(view.key)?.values() ?? [])],
      lastProgressAt: this.lastProgressAt(view, progressing?.lastUpdateTime ?? null, now),
      progressDeadlineSeconds: progressDeadlineSeconds ?? DEFAULT_PROGRESS_DEADLINE_SECONDS,
      deadlineConditionSet: progressing?.reason === "ProgressDeadlineExceeded",
      noProgressMinutes: this.settings.noProgressMinutes,
      now,
    });
    const attention = signals.length === 0 ? own : [...own, ...signals];
    return !fresh && sameReasons(attention, view.attention) ? view : { ...view, attention };
  }

  /** Records a change of one Event about a Rollout; returns the key of that Rollout. */
  eventChanged(event: KeptEvent, deleted: boolean): string {
    const key = rolloutKey(this.cluster, event.namespace, event.rollout);
    let byEvent = this.warnings.get(key);
    if (deleted || event.type !== "Warning") {
      byEvent?.delete(event.key);
      return key;
    }
    if (!byEvent) this.warnings.set(key, (byEvent = new Map()));
    const last = Date.parse(event.lastAt ?? "");
    byEvent.set(event.key, { reason: event.reason, message: event.message, count: event.count, lastAt: Number.isNaN(last) ? 0 : last });
    return key;
  }

  forget(key: string): void {
    this.progress.delete(key);
    this.own.delete(key);
  }

  /** When the Rollout last changed its state; first seen: the Progressing condition's last update, else now. */
  private lastProgressAt(view: FleetRollout, conditionUpdatedAt: string | null, now: number): number {
    const signature = progressSignature(view);
    const known = this.progress.get(view.key);
    if (known && known.signature === signature) return known.at;
    const fromCondition = conditionUpdatedAt ? Date.parse(conditionUpdatedAt) : Number.NaN;
    const at = !known && !Number.isNaN(fromCondition) ? Math.min(fromCondition, now) : now;
    this.progress.set(view.key, { signature: this.signatures.intern(signature), at });
    return at;
  }

  private registered(): Registered | null {
    const configMaps = this.configMaps();
    // Before argo-rollouts-config is listed nothing can be called unregistered; once listed, an absent one
    // registers nothing (as upstream reads it).
    if (configMaps === null) return null;
    // Looked up on every Rollout update: parsed again only when the ConfigMap changed.
    const found = argoRolloutsConfigMapOf(configMaps);
    const resourceVersion = found ? found.metadata?.resourceVersion : "absent";
    if (resourceVersion !== undefined && this.registry?.resourceVersion === resourceVersion) return this.registry.registered;
    const registered = registeredNames(parsePluginConfigMap(readArgoRolloutsConfigMap(found)).plugins);
    this.registry = { resourceVersion, registered };
    return registered;
  }
}

function registeredNames(plugins: ReadonlyArray<{ kind: string; name: string }>): Registered {
  return {
    trafficRouter: new Set(plugins.filter((p) => p.kind === "trafficRouter").map((p) => p.name)),
    step: new Set(plugins.filter((p) => p.kind === "step").map((p) => p.name)),
  };
}

function sameReasons(a: readonly AttentionReason[], b: readonly AttentionReason[]): boolean {
  return a.length === b.length && a.every((r, i) => r.code === b[i].code && r.message === b[i].message && r.href === b[i].href);
}
