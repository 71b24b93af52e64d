import type { ObjectStore, StoreEvent } from "../store/object-store";
import { ControllerMetrics } from "../metrics/controller-metrics";
import { startMetricsServer, type MetricsServer } from "../metrics/metrics-server";
import { PluginMeterMetrics } from "../metrics/plugin-meter-metrics";
import { ServiceTrafficSimulator } from "../metrics/service-traffic";
import { AnalysisRunner } from "./analysis-runner";
import { ClusterCache, objectKey } from "./cluster-cache";
import type { ControllerDeps, ReconcileContext } from "./context";
import { ControllerPod } from "./controller-pod";
import { EventRecorder, type EventLogEntry } from "./event-recorder";
import { advanceExperiment, experimentPhase } from "./experiments";
import { K8sClient } from "./k8s-client";
import { DEFAULT_CONTROLLER_NAMESPACE, PLUGIN_CONFIG_MAP, readPluginConfig, type PluginConfig } from "./plugin-config";
import { normalizeProfile, type PluginProfile, type PluginProfileInput } from "./plugin-profiles";
import { Prng } from "./prng";
import { reconcileRollout } from "./reconcile-rollout";
import { T } from "./resource-types";
import { SimClock } from "./sim-clock";
import type { AppliedRoute, RouterEnv } from "./traffic-routers";
import { TransitionLog } from "./transition-log";
import type { AnalysisRun, Rollout } from "./types";
import { WorkloadSimulator } from "./workload-simulator";
import type { ControllerHandle, ControllerOptions, ControllerState } from "./controller-types";
import { WorkQueue } from "./work-queue";
import { ensureMetricsService, ensurePluginMeterService } from "./metrics-service";

const EMPTY_CONFIG: PluginConfig = { trafficRouterPlugins: [], metricProviderPlugins: [], stepPlugins: [] };
const RESYNC_SECONDS = 300;
const METRIC_CLEANUP_SECONDS = 65;
const MAX_BACKOFF_SECONDS = 300;
const TRAFFIC_INTERVAL_MS = 2000;

/** The simulated Argo Rollouts controller of one cluster. */
class RolloutController implements ControllerHandle {
  readonly transitions: TransitionLog;
  readonly metrics: ControllerMetrics;
  private readonly store: ObjectStore;
  private readonly clock: SimClock;
  private readonly prng: Prng;
  private readonly cache = new ClusterCache();
  private readonly client: K8sClient;
  private readonly recorder: EventRecorder;
  private readonly workloads: WorkloadSimulator;
  private readonly analysis: AnalysisRunner;
  private readonly traffic: ServiceTrafficSimulator;
  private readonly meter: PluginMeterMetrics;
  private meterServer: MetricsServer | null = null;
  private readonly pod: ControllerPod;
  private readonly namespace: string;
  private readonly profiles = new Map<string, PluginProfile>();
  private readonly started = new Set<string>();
  private readonly applied = new Map<string, Map<string, AppliedRoute>>();
  private readonly precise = new Map<string, number>();
  private readonly queue = new WorkQueue();
  /** Rollouts queued by the periodic resync, and the inputs of their last reconcile that changed nothing. */
  private readonly resyncPending = new Set<string>();
  private readonly noopFingerprint = new Map<string, string>();
  private profileVersion = 0;
  private readonly errorCounts = new Map<string, number>();
  private config: PluginConfig = EMPTY_CONFIG;
  private crash: { fatal: string; backoffSeconds: number; nextAttemptMs: number; startedAt: string } | null = null;
  private restartCount = 0;
  private podStartTime = "";
  private unsubscribe: (() => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** A follow-up pass is queued with setImmediate while a backlog remains (bounded passes, no starvation). */
  private followUp = false;
  private lastResyncMs = 0;
  private lastTrafficMs = 0;
  private server: MetricsServer | null = null;
  private readonly deps: ControllerDeps;

  constructor(private readonly options: ControllerOptions) {
    this.store = options.store;
    this.transitions = new TransitionLog(options.transitionLogLimit);
    this.clock = new SimClock(options.timeScale, options.now ?? Date.now);
    this.prng = new Prng(`${options.seed}:${options.clusterName}`);
    this.namespace = options.namespace ?? DEFAULT_CONTROLLER_NAMESPACE;
    for (const [name, profile] of Object.entries(options.pluginProfiles ?? {})) this.profiles.set(name, normalizeProfile(profile));
    this.metrics = new ControllerMetrics({
      rollouts: () => this.store.list(T.rollouts).items as Rollout[],
      analysisRuns: () => this.store.list(T.analysisRuns).items as AnalysisRun[],
      analysisTemplates: () =>
        this.store.list(T.analysisTemplates).items.map((t) => ({
          namespace: t.metadata.namespace ?? "",
          name: t.metadata.name,
          metrics: ((t.spec ?? {}) as { metrics?: Array<{ name: string; provider?: Record<string, unknown> }> }).metrics ?? [],
        })),
      experiments: () =>
        this.store
          .list(T.experiments)
          .items.map((e) => ({ namespace: e.metadata.namespace ?? "", name: e.metadata.name, phase: experimentPhase(e) ?? "Pending" })),
    });
    const metered = options.meteredPlugins ? new Set(options.meteredPlugins) : null;
    this.meter = new PluginMeterMetrics((plugin) => metered === null || metered.has(plugin));
    this.client = new K8sClient(this.store, (kind, ns, name, verb, code) => this.metrics.incK8sRequest(kind, ns, name, verb, code));
    this.recorder = new EventRecorder(
      this.store,
      this.clock,
      (e) => this.metrics.incEvent(e.involvedObject.metadata.namespace ?? "", e.involvedObject.metadata.name, e.type, e.reason),
      (verb, ns) =>
        this.metrics.incK8sRequest(
          "events",
          ns,
          "N/A",
          verb === "create" ? "Create" : verb === "patch" ? "Patch" : "Delete",
          verb === "create" ? "201" : "200",
        ),
      options.eventLogLimit,
    );
    this.workloads = new WorkloadSimulator(this.store, this.cache, this.clock, this.prng.fork("pods"), options.podReadySeconds ?? 5);
    this.analysis = new AnalysisRunner(this.client, this.clock, this.prng.fork("analysis"), this.precise, (ar, seconds) =>
      this.metrics.observeAnalysisReconcile(ar.metadata.namespace ?? "", ar.metadata.name, seconds),
    );
    this.traffic = new ServiceTrafficSimulator(
      this.metrics.registry,
      { rollouts: () => this.store.list(T.rollouts).items as Rollout[], applied: (key, router) => this.applied.get(key)?.get(router) },
      this.prng.fork("traffic"),
      () => this.clock.now(),
    );
    this.pod = new ControllerPod(this.store, this.clock, this.prng.fork("controller-pod"), this.namespace, options.clusterName);
    const routerPrng = this.prng.fork("routers");
    this.deps = {
      clusterName: options.clusterName,
      store: this.store,
      client: this.client,
      clock: this.clock,
      prng: this.prng,
      cache: this.cache,
      recorder: this.recorder,
      transitions: this.transitions,
      pluginConfig: EMPTY_CONFIG,
      precise: this.precise,
      routerEnv: (ctx) => this.routerEnv(ctx, routerPrng),
    };
  }

  get state(): ControllerState {
    return {
      status: this.crash ? "CrashLoopBackOff" : "Running",
      ...(this.crash ? { reason: this.crash.fatal } : {}),
      restartCount: this.restartCount,
      podName: this.pod.podName,
      podStartTime: this.podStartTime,
      ...(this.config.resourceVersion ? { configResourceVersion: this.config.resourceVersion } : {}),
    };
  }

  get pluginConfig(): PluginConfig {
    return this.config;
  }

  get eventLog(): readonly EventLogEntry[] {
    return this.recorder.log;
  }

  get metricsUrl(): string {
    return this.server?.url ?? "";
  }

  get metricsPort(): number {
    return this.server?.port ?? 0;
  }

  /** The plugin meter's /metrics (the calls this controller makes to its plugins, as rollscope-plugin-meter counts them). */
  get pluginMeterUrl(): string {
    return this.meterServer?.url ?? "";
  }

  async start(): Promise<void> {
    this.server = await startMetricsServer(this.metrics.registry, this.options.metricsHost ?? "127.0.0.1", this.options.metricsPort ?? 0);
    ensureMetricsService(this.store, this.namespace, `http://${this.options.metricsHost ?? "127.0.0.1"}:${this.metricsPort}`);
    this.meterServer = await startMetricsServer(this.meter.registry, this.options.metricsHost ?? "127.0.0.1", 0);
    ensurePluginMeterService(this.store, this.namespace, `http://${this.options.metricsHost ?? "127.0.0.1"}:${this.meterServer.port}`);
    this.cache.load(this.store);
    // Spread periodic work so many simulated clusters in one process do not all resync at once.
    const now = this.clock.now();
    this.lastResyncMs = now - this.prng.next() * this.clock.realMs(RESYNC_SECONDS);
    this.lastTrafficMs = now - this.prng.next() * TRAFFIC_INTERVAL_MS;
    this.unsubscribe = this.store.subscribe((event) => this.onStoreEvent(event));
    this.startPod();
    if (this.options.autoReconcile !== false) {
      const interval = this.options.loopIntervalMs ?? Math.min(200, Math.max(20, Math.round(2000 / this.options.timeScale)));
      this.timer = setInterval(() => this.pass(), interval);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await Promise.all([this.server?.close(), this.meterServer?.close()]);
    this.server = null;
    this.meterServer = null;
  }

  restart(): void {
    this.started.clear();
    this.restartCount = 0;
    this.crash = null;
    this.startPod();
  }

  tick(): void {
    this.loop(true);
  }

  /** One budgeted timer pass; when work is left over, another pass follows as soon as I/O has had its turn. */
  private pass(): void {
    if (!this.timer) return;
    const backlog = this.loop(false);
    if (backlog && !this.followUp) {
      this.followUp = true;
      setImmediate(() => {
        this.followUp = false;
        this.pass();
      });
    }
  }

  setPluginProfile(name: string, profile: PluginProfileInput): void {
    this.profiles.set(name, normalizeProfile(profile));
    this.profileVersion++;
    this.queue.addAll("rollout", this.allRolloutKeys());
  }

  pluginProfile(name: string): PluginProfile {
    return this.profiles.get(name) ?? {};
  }

  /** A new controller Pod: reads argo-rollouts-config once, as upstream does at start-up. */
  private startPod(): void {
    this.pod.replace();
    this.podStartTime = this.clock.iso();
    this.loadConfig(this.podStartTime);
  }

  private loadConfig(containerStartedAt: string): void {
    const result = readPluginConfig(this.store.tryGet(T.configMaps, this.namespace, PLUGIN_CONFIG_MAP));
    if (result.ok) {
      this.config = result.config;
      this.deps.pluginConfig = result.config;
      this.crash = null;
      this.queue.addAll("rollout", this.allRolloutKeys());
      return;
    }
    this.config = EMPTY_CONFIG;
    this.deps.pluginConfig = EMPTY_CONFIG;
    const backoffSeconds = this.crash ? Math.min(this.crash.backoffSeconds * 2, MAX_BACKOFF_SECONDS) : 10;
    this.crash = {
      fatal: result.fatal,
      backoffSeconds,
      nextAttemptMs: this.clock.now() + this.clock.realMs(backoffSeconds),
      startedAt: containerStartedAt,
    };
    this.pod.crashed(result.fatal, this.restartCount, backoffSeconds, containerStartedAt);
  }

  /** kubelet restarting the crashed container after its back-off: the config is read again. */
  private retryCrashed(): void {
    if (!this.crash || this.clock.now() < this.crash.nextAttemptMs) return;
    this.restartCount++;
    this.started.clear();
    this.loadConfig(this.clock.iso());
    if (!this.crash) this.pod.running(this.restartCount);
  }

  private onStoreEvent(event: StoreEvent): void {
    const change = this.cache.apply(event);
    if (event.resource === T.rollouts && event.type === "ADDED") this.onRolloutAdded(event.object as Rollout);
    if (change.rollout) this.queue.add("rollout", change.rollout);
    if (change.replicaSet) this.queue.add("replicaSet", change.replicaSet);
    if (change.analysisRun) this.queue.add("analysisRun", change.analysisRun);
    if (change.experiment) this.queue.add("experiment", change.experiment);
    if (change.deletedRollout) this.onRolloutDeleted(change.deletedRollout as Rollout);
  }

  /**
   * Upstream's informer AddFunc. Rollouts that exist before the simulator starts get no event (upstream's initial list
   * would give them one): seeding thousands of Rollouts would otherwise start with thousands of Events.
   */
  private onRolloutAdded(ro: Rollout): void {
    // After the store's notification round: recording writes an Event into the same store.
    queueMicrotask(() =>
      this.recorder.record(
        ro,
        "Normal",
        "RolloutAddedToInformer",
        `Rollout resource added to informer: ${ro.metadata.namespace}/${ro.metadata.name}`,
      ),
    );
  }

  private onRolloutDeleted(ro: Rollout): void {
    const ns = ro.metadata.namespace ?? "";
    const key = objectKey(ro);
    this.applied.delete(key);
    this.traffic.forget(key);
    this.transitions.forget(ns, ro.metadata.name);
    this.queue.forget("rollout", key);
    this.noopFingerprint.delete(key);
    const cleanup = setTimeout(() => {
      if (!this.store.tryGet(T.rollouts, ns, ro.metadata.name)) this.metrics.forgetRollout(ns, ro.metadata.name);
    }, this.clock.realMs(METRIC_CLEANUP_SECONDS));
    cleanup.unref();
  }

  private allRolloutKeys(): string[] {
    return this.store.list(T.rollouts).items.map(objectKey);
  }

  private routerEnv(ctx: ReconcileContext, prng: Prng): RouterEnv {
    return {
      store: this.store,
      isRegistered: (name) => this.config.trafficRouterPlugins.some((p) => p.name === name),
      profile: (name) => this.profiles.get(name) ?? {},
      prng,
      started: this.started,
      observeRpc: (plugin, method, outcome, latencyMs) => {
        ctx.rpcLatencyMs += latencyMs;
        // As rollscope-plugin-meter records it: NotImplemented is an answer without error (ok).
        this.meter.observe(plugin, "trafficRouter", method, outcome === "error" ? "error" : "ok", 0.002 + latencyMs / 1000);
      },
      event: (type, reason, message) => ctx.event(type, reason, message),
      applied: (routerKey) => this.applied.get(ctx.key)?.get(routerKey),
      setApplied: (routerKey, route) => {
        let routes = this.applied.get(ctx.key);
        if (!routes) this.applied.set(ctx.key, (routes = new Map()));
        const before = routes.get(routerKey);
        if (
          before &&
          (before.measuredWeight !== route.measuredWeight ||
            before.canaryHash !== route.canaryHash ||
            before.stableHash !== route.stableHash)
        ) {
          // The traffic served so far went to the weights applied so far.
          this.traffic.serveUntilNow(ctx.ro);
        }
        routes.set(routerKey, route);
      },
    };
  }

  /** What a reconcile reads: when none of it changed since a pass that wrote nothing, a resync can skip it. */
  private fingerprint(key: string, ro: Rollout): string {
    const parts = [
      ro.metadata.resourceVersion ?? "",
      this.config.resourceVersion ?? "",
      String(this.profileVersion),
      String(this.started.size),
    ];
    for (const rs of this.cache.replicaSetsOf(key, undefined)) parts.push(rs.metadata.resourceVersion ?? "");
    for (const ar of this.cache.analysisRunsOf(key, undefined)) parts.push(ar.metadata.resourceVersion ?? "");
    return parts.join("|");
  }

  /** Returns whether work was left for a later pass. */
  private loop(everything: boolean): boolean {
    if (this.crash) {
      this.retryCrashed();
      if (this.crash) return false;
    }
    const started = performance.now();
    const budget = everything ? Infinity : (this.options.loopBudgetMs ?? 8);
    const overBudget = (share = 1) => performance.now() - started > budget * share;
    const now = this.clock.now();
    if (now - this.lastResyncMs >= this.clock.realMs(RESYNC_SECONDS)) {
      this.lastResyncMs = now;
      for (const key of this.allRolloutKeys()) this.resyncPending.add(key);
    }
    const all = (type: typeof T.replicaSets) => (everything ? this.store.list(type).items.map(objectKey) : []);
    const rsKeys = this.queue.take("replicaSet", now, all(T.replicaSets));
    for (const [i, key] of rsKeys.entries()) {
      // Pods get half the budget so rollouts are not starved while many ReplicaSets scale.
      if (overBudget(0.5)) {
        this.queue.addAll("replicaSet", rsKeys.slice(i));
        break;
      }
      const next = this.workloads.reconcile(key);
      if (next !== null) this.queue.addAt("replicaSet", key, next);
    }
    for (const key of this.queue.take("analysisRun", now, all(T.analysisRuns))) {
      const next = this.analysis.reconcile(key);
      if (next !== null) this.queue.addAt("analysisRun", key, next);
    }
    for (const key of this.queue.take("experiment", now, all(T.experiments))) {
      const next = advanceExperiment(this.client, this.clock, this.precise, key);
      if (next !== null) this.queue.addAt("experiment", key, next);
    }
    const roKeys = this.queue.take("rollout", now, everything ? this.allRolloutKeys() : []);
    for (const [i, key] of roKeys.entries()) {
      if (overBudget()) {
        this.queue.addAll("rollout", roKeys.slice(i));
        break;
      }
      this.resyncPending.delete(key);
      this.reconcileOne(key);
    }
    for (const key of [...this.resyncPending]) {
      if (overBudget()) break;
      this.resyncPending.delete(key);
      const [ns, name] = key.split("/");
      const ro = this.store.tryGet(T.rollouts, ns, name) as Rollout | undefined;
      if (ro && this.noopFingerprint.get(key) !== this.fingerprint(key, ro)) this.reconcileOne(key);
    }
    if (now - this.lastTrafficMs >= TRAFFIC_INTERVAL_MS || everything) {
      this.lastTrafficMs = now;
      this.traffic.advance();
    }
    this.recorder.sweep();
    if (this.precise.size > 200_000) this.precise.clear();
    return this.queue.pending("rollout") + this.queue.pending("replicaSet") + this.resyncPending.size > 0;
  }

  private reconcileOne(key: string): void {
    const [ns, name] = key.split("/");
    const ro = this.store.tryGet(T.rollouts, ns, name) as Rollout | undefined;
    if (!ro || ro.metadata.deletionTimestamp) return;
    const started = performance.now();
    const revisionBefore = this.store.resourceVersion;
    let error: string | null;
    let requeueSeconds: number | null = null;
    let rpcLatencyMs = 0;
    try {
      const result = reconcileRollout(this.deps, ro);
      ({ error, requeueSeconds, rpcLatencyMs } = result);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    this.metrics.observeReconcile(ns, name, (performance.now() - started) / 1000 + rpcLatencyMs / 1000);
    if (error) {
      this.metrics.incReconcileError(ns, name);
      const failures = (this.errorCounts.get(key) ?? 0) + 1;
      this.errorCounts.set(key, failures);
      // The workqueue's per-item exponential back-off (DefaultArgoRolloutsRateLimiter: 1 ms doubling, capped at 10 s).
      requeueSeconds = Math.min(0.001 * 2 ** (failures - 1), 10);
    } else this.errorCounts.delete(key);
    if (requeueSeconds !== null) this.queue.addAt("rollout", key, this.clock.now() + this.clock.realMs(requeueSeconds));
    const quiet = !error && requeueSeconds === null && this.store.resourceVersion === revisionBefore;
    if (quiet) this.noopFingerprint.set(key, this.fingerprint(key, ro));
    else this.noopFingerprint.delete(key);
  }
}

/** Starts the simulated Argo Rollouts controller of one cluster (its /metrics server included). */
export async function startController(options: ControllerOptions): Promise<ControllerHandle> {
  const controller = new RolloutController(options);
  await controller.start();
  return controller;
}
