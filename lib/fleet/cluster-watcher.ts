import "server-only";
import type { KubernetesListObject, KubernetesObject } from "@kubernetes/client-node";
import type { ClusterConfig } from "@/lib/config/schema";
import type { RolloutLike } from "@/lib/plugins/usage";
import { redactErrorText } from "@/lib/errors/known-secrets";
import { createClusterClients, type ClusterClients } from "@/lib/k8s/cluster-clients";
import { kubeRequest } from "@/lib/k8s/kube-request";
import { keyOf as objKey, type HeldVersions } from "@/lib/k8s/lean-list-watch";
import { startResourceWatch, type ResourceWatch, type WatchState } from "@/lib/k8s/resource-watch";
import { countWatchRelist, observeWatchState, watchEventCounter } from "@/lib/telemetry/observe";
import { parseRollout, type RolloutResource } from "@/lib/rollouts/schema";
import { toRolloutView, type FleetRollout } from "@/lib/rollouts/view-model";
import { DEFAULT_ATTENTION_SETTINGS, RolloutSignals, type AttentionSettings } from "./rollout-signals";
import { summarizeClusterConnection } from "./cluster-connection";
import { isEventAbout, keepEvent, type KeptEvent } from "./kept-event";
import { projectRollout, type RolloutProjection } from "./rollout-projection";
import { slimObject } from "./slim-object";
import { StringPool } from "./string-pool";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { rolloutKey, type FleetDelta } from "./types";

/** Everything a cluster watches; Rollouts first, as the cluster's main watch. */
const WATCHED_KINDS = ["rollouts", "events", "analysisruns", "configmap", "controllerPods"] as const;
export type WatchedKind = (typeof WATCHED_KINDS)[number];

/**
 * What each watch keeps, the one copy of it (the list-watch keeps nothing and asks this for versions): a projection
 * of each Rollout beside its view (keyed by the view's key, one string for both), one flat record per Event about a
 * Rollout (what the pages, signals and recorder read), the other kinds without their managedFields.
 */
interface Store {
  rollouts: Map<string, RolloutProjection>;
  events: Map<string, KeptEvent>;
  analysisruns: Map<string, KubernetesObject>;
  configmap: Map<string, KubernetesObject>;
  controllerPods: Map<string, KubernetesObject>;
}
type ObjectKind = Exclude<WatchedKind, "rollouts" | "events">;

/** How often time-dependent attention reasons are looked at again. */
const SIGNALS_SWEEP_MS = 15_000;

/**
 * Whether `obj` has the spec `previous` was built from, read and found valid then: the same object (uid) at the same
 * generation, which the API server bumps on every spec change.
 */
function specAlreadyRead(obj: unknown, previous: FleetRollout | undefined): boolean {
  if (!previous || previous.parseError !== null || previous.uid === null || previous.generation === null) return false;
  const meta = (obj as { metadata?: { uid?: unknown; generation?: unknown } }).metadata;
  return meta?.uid === previous.uid && meta.generation === previous.generation;
}

/** The Rollout as the schema reads it; a malformed object yields its name and what is wrong. */
function parseWatchedRollout(
  obj: unknown,
  previous?: FleetRollout,
): { rollout: RolloutResource; parsed: boolean; parseError: string | null } {
  const parsed = parseRollout(obj, specAlreadyRead(obj, previous));
  if (parsed.ok) return { rollout: parsed.rollout, parsed: true, parseError: null };
  const meta = (obj as { metadata?: { name?: string; namespace?: string } }).metadata ?? {};
  const minimal = parseRollout({ metadata: { name: String(meta.name ?? "?"), namespace: meta.namespace } });
  if (!minimal.ok) throw new Error(minimal.error);
  return { rollout: minimal.rollout, parsed: false, parseError: parsed.error };
}

function toFleetRollout(cluster: string, rollout: RolloutResource, parseError: string | null, now: Date): FleetRollout {
  const view = toRolloutView(rollout, now);
  return { ...view, cluster, key: rolloutKey(cluster, view.namespace, view.name), parseError, lastChangedAt: now.toISOString() };
}

/** Builds the fleet view of one Rollout object; a malformed object still yields a row naming what is wrong. */
export function buildFleetRollout(cluster: string, obj: unknown, now: Date): FleetRollout {
  const { rollout, parseError } = parseWatchedRollout(obj);
  return toFleetRollout(cluster, rollout, parseError, now);
}

/**
 * The view and the projection of one Rollout object, from one parse (`previous`: the view of the version it replaces,
 * whose spec need not be checked again when unchanged).
 */
export function buildWatchedRollout(
  cluster: string,
  obj: unknown,
  now: Date,
  previous?: FleetRollout,
): { view: FleetRollout; projection: RolloutProjection } {
  const { rollout, parsed, parseError } = parseWatchedRollout(obj, previous);
  return { view: toFleetRollout(cluster, rollout, parseError, now), projection: projectRollout(obj, parsed ? rollout : null) };
}

/**
 * One cluster's list-then-watch of everything Rollscope shows: Rollouts, Events involving Rollouts, AnalysisRuns,
 * the argo-rollouts-config ConfigMap and the controller pods. Each watch reconnects on its own; the cluster's
 * connection state is the worst of them. Every error it reports is redacted of credentials.
 */
export class ClusterWatcher {
  readonly clients: ClusterClients;
  private readonly store: Store = {
    rollouts: new Map(),
    events: new Map(),
    analysisruns: new Map(),
    configmap: new Map(),
    controllerPods: new Map(),
  };
  private readonly views = new Map<string, FleetRollout>();
  private readonly strings = new StringPool();
  private readonly watchStates = new Map<WatchedKind, WatchState>();
  private readonly listedAt = new Map<WatchedKind, string>();
  private readonly watches: ResourceWatch[] = [];
  private lastState: ClusterStateView | null = null;
  private readonly signals: RolloutSignals;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    readonly config: ClusterConfig,
    private readonly emit: (delta: FleetDelta) => void,
    /** Each Event about a Rollout as it is kept, when it was added or changed (the recorder stores them). */
    private readonly onEventKept?: (event: KeptEvent) => void,
    attention: AttentionSettings = DEFAULT_ATTENTION_SETTINGS,
  ) {
    this.clients = createClusterClients(config);
    this.signals = new RolloutSignals(config.name, attention, () => (this.listedAt.has("configmap") ? this.objects("configmap") : null));
  }

  get name(): string {
    return this.config.name;
  }

  start(): void {
    const ns = this.config.controllerNamespace;
    const list = (path: string, fieldSelector?: string) => () =>
      kubeRequest<KubernetesListObject<KubernetesObject>>(this.clients.kubeConfig, path, { query: { fieldSelector } });
    const watch = (kind: WatchedKind, path: string, fieldSelector?: string) =>
      this.watch(kind, path, list(path, fieldSelector), fieldSelector);
    watch("rollouts", "/apis/argoproj.io/v1alpha1/rollouts");
    watch("events", "/api/v1/events", "involvedObject.kind=Rollout");
    watch("analysisruns", "/apis/argoproj.io/v1alpha1/analysisruns");
    watch("configmap", `/api/v1/namespaces/${ns}/configmaps`, "metadata.name=argo-rollouts-config");
    watch("controllerPods", `/api/v1/namespaces/${ns}/pods`);
    // Time alone changes some attention reasons (no progress, the progress deadline): look again now and then.
    this.sweepTimer = setInterval(() => this.refreshSignals(), SIGNALS_SWEEP_MS);
    this.sweepTimer.unref?.();
  }

  /**
   * Re-derives the attention reasons that depend on the cluster around a Rollout or on time, and emits the Rollouts
   * whose reasons changed (`only`: just that one).
   */
  private refreshSignals(only?: string): void {
    const now = Date.now();
    const views = only === undefined ? [...this.views.values()] : [this.views.get(only)].filter((v) => v !== undefined);
    for (const view of views) {
      const projection = this.store.rollouts.get(view.key);
      const next = this.signals.apply(view, projection?.progressDeadlineSeconds, now, false);
      if (next === view) continue;
      this.views.set(view.key, next);
      this.emit({ type: "upsert", rollout: next });
    }
  }

  private watch(kind: WatchedKind, path: string, list: () => Promise<KubernetesListObject<KubernetesObject>>, fieldSelector?: string) {
    const counted = watchEventCounter(this.name, kind);
    this.watches.push(
      startResourceWatch({
        kubeConfig: this.clients.kubeConfig,
        path,
        list,
        fieldSelector,
        held: this.held(kind),
        onUpsert: (obj) => {
          counted();
          this.upsert(kind, obj);
        },
        onDelete: (obj) => {
          counted();
          this.remove(kind, obj);
        },
        onState: (state) => {
          observeWatchState(this.name, kind, state.status);
          this.watchStates.set(kind, state);
          this.publishState();
        },
        onList: (at) => {
          if (this.listedAt.has(kind)) countWatchRelist(this.name, kind);
          this.listedAt.set(kind, at.toISOString());
          this.publishState();
          if (kind === "configmap") this.refreshSignals();
        },
      }),
    );
  }

  /** What this watcher holds of one kind, by `namespace/name`: its list-watch asks it instead of keeping a copy. */
  private held(kind: WatchedKind): HeldVersions {
    if (kind === "rollouts") {
      return {
        versionOf: (key) => this.views.get([this.name, key].join("/"))?.resourceVersion,
        keys: () => [...this.views.values()].map((view) => [view.namespace ?? "", view.name].join("/")),
      };
    }
    if (kind === "events") return { versionOf: (key) => this.store.events.get(key)?.resourceVersion, keys: () => this.store.events.keys() };
    const store = this.store[kind];
    return {
      versionOf: (key) => {
        const obj = store.get(key);
        return obj && (obj.metadata?.resourceVersion ?? null);
      },
      keys: () => store.keys(),
    };
  }

  private upsert(kind: WatchedKind, obj: KubernetesObject): void {
    if (kind === "rollouts") this.upsertRollout(obj);
    else if (kind === "events") this.upsertEvent(obj);
    else {
      const key = objKey(obj);
      this.store[kind].set(key, this.strings.internAll(slimObject(obj), this.store[kind].get(key)));
      if (kind === "configmap") this.refreshSignals();
    }
  }

  /** Keeps an Event about a Rollout (others are not kept) and looks at that Rollout's reasons again. */
  private upsertEvent(obj: KubernetesObject): void {
    const event = keepEvent(obj);
    if (!event) return this.removeEvent(obj); // no longer readable: what was kept of it no longer holds
    const kept = this.strings.internAll(event, this.store.events.get(event.key));
    this.store.events.set(kept.key, kept);
    this.onEventKept?.(kept);
    this.refreshSignals(this.signals.eventChanged(event, false));
  }

  private upsertRollout(obj: KubernetesObject): void {
    const previous = this.views.get(rolloutKey(this.name, obj.metadata?.namespace, obj.metadata?.name ?? ""));
    if (previous && previous.resourceVersion === (obj.metadata?.resourceVersion ?? null)) return;
    const { view: built, projection } = buildWatchedRollout(this.name, obj, new Date(), previous);
    // Interned against what it replaces: a status update leaves most of the view and all of the projection as it was.
    const view = this.signals.apply(this.strings.internAll(built, previous), projection.progressDeadlineSeconds, Date.now(), true);
    this.store.rollouts.set(view.key, this.strings.internAll(projection, this.store.rollouts.get(view.key)));
    this.views.set(view.key, view);
    this.emit({ type: "upsert", rollout: view });
    if (!previous) this.publishState();
  }

  private removeEvent(obj: KubernetesObject): void {
    const kept = this.store.events.get(objKey(obj));
    if (!kept) return;
    this.store.events.delete(kept.key);
    this.refreshSignals(this.signals.eventChanged(kept, true));
  }

  /** `obj` may be only the name and version of an object a relist found gone: the kept copy says what it was. */
  private remove(kind: WatchedKind, obj: KubernetesObject): void {
    if (kind === "rollouts") {
      const key = rolloutKey(this.name, obj.metadata?.namespace, obj.metadata?.name ?? "");
      this.store.rollouts.delete(key);
      this.signals.forget(key);
      if (this.views.delete(key)) {
        this.emit({ type: "delete", key, cluster: this.name });
        this.publishState();
      }
    } else if (kind === "events") this.removeEvent(obj);
    else {
      this.store[kind].delete(objKey(obj));
      if (kind === "configmap") this.refreshSignals();
    }
  }

  state(): ClusterStateView {
    const watches: ClusterStateView["watches"] = {};
    for (const [kind, state] of this.watchStates) {
      const error = "error" in state ? redactErrorText(state.error) : null;
      watches[kind] = { status: state.status, since: state.since, error, listedAt: this.listedAt.get(kind) ?? null };
    }
    const { connection, since, error } = summarizeClusterConnection(WATCHED_KINDS, this.watchStates, new Date().toISOString());
    return {
      name: this.name,
      label: this.config.label ?? null,
      controllerNamespace: this.config.controllerNamespace,
      connection,
      since,
      error: error === null ? null : redactErrorText(error),
      watches,
      rolloutCount: this.views.size,
    };
  }

  private publishState(): void {
    const next = this.state();
    const prev = this.lastState;
    if (prev && JSON.stringify(prev) === JSON.stringify(next)) return;
    this.lastState = next;
    this.emit({ type: "cluster", cluster: next });
  }

  rollouts(): FleetRollout[] {
    return [...this.views.values()];
  }

  rollout(namespace: string, name: string): FleetRollout | undefined {
    return this.views.get(rolloutKey(this.name, namespace, name));
  }

  /** What is kept of the Rollout object besides its view (the object itself is read from the API server when needed). */
  rolloutProjection(namespace: string, name: string): RolloutProjection | undefined {
    return this.store.rollouts.get(rolloutKey(this.name, namespace, name));
  }

  /** Every watched Rollout's plugin and analysis-template references (those that parsed). */
  rolloutUsages(): RolloutLike[] {
    return [...this.store.rollouts.values()].flatMap((p) => (p.usage ? [p.usage] : []));
  }

  objects(kind: ObjectKind): KubernetesObject[] {
    return [...this.store[kind].values()];
  }

  /** The Events about Rollouts the cluster holds (`rollout`: only those about that object, by namespace, name and uid). */
  events(rollout?: { namespace: string; name: string; uid: string | null }): KeptEvent[] {
    const events = [...this.store.events.values()];
    return rollout ? events.filter((e) => isEventAbout(e, rollout)) : events;
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await Promise.all(this.watches.map((w) => w.stop()));
  }
}
