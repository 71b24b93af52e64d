import "server-only";
import { setImmediate as nextEventLoopTurn } from "node:timers/promises";
import { canReadObject, type ReadScope } from "@/lib/auth/read-scope";
import type { Repositories } from "@/lib/db/repositories";
import { messageOf } from "@/lib/errors/message-of";
import { serializeJson, type SerializedJson } from "@/lib/http/respond";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { GROUP_LABEL, PART_LABEL, rangeTimestamps, type MetricsSource, type RangeSpec } from "@/lib/metrics/types";
import { renderPromqlTemplate } from "@/lib/prometheus/promql";
import {
  LATENCY_PART,
  MAX_FILTER_VALUES,
  SIGNAL_PARTS,
  emptyClusterSignals,
  emptyScopeSignals,
  readGroupedSignals,
  type ClusterSignals,
  type RolloutRef,
} from "@/lib/plugins/controller-signals";
import { resolvePluginSettings } from "@/lib/plugins/effective-settings";
import { ReusedReads } from "@/lib/plugins/reused-reads";
import { isOwnProblemOnly } from "@/lib/plugins/router-attribution";
import type { DerivedSignalSeries, PluginWarningEvent } from "@/lib/plugins/health";
import {
  assembleHealthReport,
  buildClusterHealthViews,
  buildFleetHealthViews,
  describeUnverifiedRollout,
  planHealthWindow,
  toRolloutRefs,
  type ClusterHealthData,
  type HealthWindow,
  type ScopeRecords,
} from "@/lib/plugins/health-report";
import { readablePluginHealth } from "@/lib/plugins/read-filter";
import { describePerRpcSignal, usesPerRpcPromql, type PerRpcData } from "@/lib/plugins/per-rpc";
import { PLUGIN_METER_FAMILY, readsPluginMeter } from "@/lib/plugins/plugin-meter-family";
import { listPluginScopes, type PluginScope } from "@/lib/plugins/plugin-scopes";
import type { PerRpcSettings } from "@/lib/plugins/settings-schema";
import { describeTemplateError } from "@/lib/plugins/template-check";
import {
  BURN_READ_EVERY_MS,
  toHealthAnswer,
  type ComputedHealthReport,
  type HealthRange,
  type PluginHealthReport,
  type UnverifiedRolloutView,
} from "@/lib/plugins/view-types";
import type { AppContext } from "@/lib/server/app-context";
import { observePluginHealthCompute } from "@/lib/telemetry/observe";
import { createKeptResult, type KeptResult } from "@/lib/server/kept-result";
import { createSharedResult, type SharedResult } from "@/lib/server/shared-result";

export interface PluginHealthQuery {
  range: HealthRange;
  cluster?: string;
  plugin?: string;
}

type Scope = PluginScope<FleetRollout>;

/**
 * Health per traffic-router plugin, per cluster and fleet-wide, over a range: derived call outcomes and success
 * rate, SLO burn (1 h, 24 h), failures by RPC, reconcile latency, weight verification, Warning events, affected
 * Rollouts, and per-RPC numbers where the cluster's config names such a metric. A failing source fails only the
 * panels that need it.
 */
export async function getPluginHealth(app: AppContext, input: PluginHealthQuery): Promise<ComputedHealthReport> {
  if (input.cluster) app.fleet.clusterOrThrow(input.cluster);
  const window = planHealthWindow(input.range, app.now());
  const scopes = listPluginScopes(app.fleet.clusters, input);
  // Prometheus and the database answer at once: neither waits for the other.
  const startedAt = performance.now();
  const since = () => Math.round(performance.now() - startedAt);
  const timed = async <T>(work: Promise<T>): Promise<[T, number]> => [await work, since()];
  const [[clusters, metricsMs], [records, recordsMs]] = await Promise.all([
    timed(collectClusters(app, scopes, window)),
    timed(loadScopeRecords(app.repos, scopes, window)),
  ]);
  const perCluster = buildClusterHealthViews({ window, scopes, clusters, records });
  const fleetWide = input.cluster
    ? []
    : buildFleetHealthViews(perCluster, resolvePluginSettings(app.config.plugins, undefined), window.timestamps);
  const report = assembleHealthReport(window, [...fleetWide, ...perCluster.map((built) => built.view)]);
  const computeMs = since();
  observePluginHealthCompute(metricsMs, recordsMs, computeMs);
  // What a slow report waited for, so an operator can tell a slow Prometheus from a busy database or server.
  if (computeMs >= SLOW_REPORT_MS)
    console.warn(
      `plugin health (${input.range}${input.cluster ? `, ${input.cluster}` : ""}${input.plugin ? `, ${input.plugin}` : ""}) took ${computeMs} ms: ` +
        `metrics of ${clusters.size} cluster(s) ${metricsMs} ms, stored records of ${scopes.length} plugin scope(s) ${recordsMs} ms`,
    );
  return { ...report, computeMs };
}

/** A report computed slower than this is logged with where its time went. */
const SLOW_REPORT_MS = 2_000;

// ── Collect: every cluster's metrics, concurrently ──────────────────────────────────────────────────────────────

async function collectClusters(app: AppContext, scopes: readonly Scope[], window: HealthWindow): Promise<Map<string, ClusterHealthData>> {
  const clusters = [...new Set(scopes.map((s) => s.cluster))];
  // Each cluster's queries are built and sent in a turn of the event loop of its own, one turn after another (all
  // twenty at once held the loop for about 80 ms: building the queries, opening the connections). A turn's immediate
  // queued by this loop runs in the next turn, after the timers and the I/O that were ready; the queries of the
  // clusters sent earlier are meanwhile in flight.
  const watchers = clusters.map((cluster) => app.fleet.clusterOrThrow(cluster));
  const collected: Promise<ClusterHealthData>[] = [];
  for (const watcher of watchers) {
    await nextEventLoopTurn();
    const answer = collectCluster(app, watcher, scopes, window);
    answer.catch(() => undefined); // handled below, by Promise.all; not "unhandled" while later clusters start
    collected.push(answer);
  }
  const answers = await Promise.all(collected);
  return new Map(clusters.map((cluster, i) => [cluster, answers[i]]));
}

async function collectCluster(
  app: AppContext,
  cluster: ClusterWatcher,
  scopes: readonly Scope[],
  window: HealthWindow,
): Promise<ClusterHealthData> {
  const source = app.metricsSource(cluster.name);
  const settings = resolvePluginSettings(app.config.plugins, cluster.config.plugins);
  const mine = scopes.filter((s) => s.cluster === cluster.name);
  const [signals, perRpc] = await Promise.all([
    querySignals(source, mine, window, source.kind === "prometheus" ? burnReadsOf(app) : null),
    queryPerRpc(
      source,
      settings.perRpc,
      mine.map((s) => s.plugin),
      window.query,
    ),
  ]);
  const status = source.kind === "scrape" ? await source.status().catch(() => null) : null;
  // A scrape source that never succeeded has no data rather than zero calls: say why.
  if (status && !status.ok && signals.error === null && status.lastSuccessAt === null)
    signals.error = `no successful scrape yet: ${status.error ?? "unknown"}`;
  return { signals, perRpc, sourceSignal: source.signal, settings };
}

/** The range's parts: the derived signals and, last, the latency buckets (one query for both; see querySignals). */
const RANGE_PARTS = [...SIGNAL_PARTS, LATENCY_PART];
const LATENCY_PART_INDEX = String(SIGNAL_PARTS.length);

/**
 * The derived signals of one cluster's plugin scopes, each summed over its Rollouts by the source: one grouped query
 * for the range (the signals and the latency buckets together) and one per burn window. The queries run at once; a
 * failure fails only the panels that need its answer.
 */
async function querySignals(
  source: MetricsSource,
  scopes: readonly Scope[],
  window: HealthWindow,
  burnReads: BurnReads | null,
): Promise<ClusterSignals> {
  const result = emptyClusterSignals();
  const length = window.timestamps.length;
  for (const scope of scopes) result.byPlugin.set(scope.plugin, emptyScopeSignals(length));
  // A Rollout with problems of its own and none of the router's (a missing Service fails its every reconcile) is left
  // out: its reconcile errors are not the router's failures. The page lists it beside the router's health.
  const groups = scopes.map((scope, i) => ({
    key: String(i),
    rollouts: toRolloutRefs(scope.rollouts.filter((r) => !isOwnProblemOnly(r, scope.plugin))),
  }));
  if (groups.every((g) => g.rollouts.length === 0)) return result;
  const scopeOf = (key: string | undefined) => result.byPlugin.get(scopes[Number(key)]?.plugin ?? "");
  const signalsOver = async (range: RangeSpec) =>
    readGroupedSignals(await source.increaseByGroup({ parts: SIGNAL_PARTS, groups }, range), rangeTimestamps(range).length);
  const { nowMs } = window;
  // What the burn windows were read for: the cluster and each plugin's Rollouts, in the groups' order (built once for
  // both windows: at 5,000 Rollouts it is the JSON of every Rollout reference of the cluster).
  let reuseKey: string | undefined;
  const burnKey = () =>
    (reuseKey ??= [scopes[0]?.cluster, ...groups.map((g, i) => `${scopes[i].plugin}:${JSON.stringify(g.rollouts)}`)].join("\n"));
  // The burn windows: one instant each, over the last hour and the last day.
  const readBurn = async (seconds: number, reads: ReusedReads<Map<string, DerivedSignalSeries>> | null) => {
    const read = () => signalsOver({ startMs: nowMs, endMs: nowMs, stepSeconds: seconds });
    if (!reads) return read();
    return (await reads.read(burnKey(), nowMs, read)).value;
  };
  // The widest window first for a scrape-mode source: it then answers the other reads from the rows it just read.
  const burn24hFirst = source.kind === "scrape" ? readBurn(86_400, null) : null;
  // The signals and the latency buckets over the range in one query: at 20 clusters a report sent 60 queries
  // (this, the latency and the per-RPC read per cluster) where Prometheus runs 20 at a time, and 40 now.
  const overRange = (burn24hFirst?.catch(() => undefined) ?? Promise.resolve()).then(() =>
    source.increaseByGroup({ parts: RANGE_PARTS, groups }, window.query),
  );
  const collectSignals = async () => {
    const first = burn24hFirst === null ? null : await burn24hFirst;
    const [burn24h, series, burn1h] = await Promise.all([
      first ?? readBurn(86_400, burnReads?.day ?? null),
      overRange.then((answer) => readGroupedSignals(answer, length)),
      readBurn(3600, burnReads?.hour ?? null),
    ]);
    for (const [key, signals] of burn24h) scopeOf(key)!.burn24h = signals;
    for (const [key, signals] of burn1h) scopeOf(key)!.burn1h = signals;
    for (const [key, signals] of series) scopeOf(key)!.series = signals;
  };
  const collectLatency = async () => {
    for (const s of await overRange) {
      if (s.labels[PART_LABEL] !== LATENCY_PART_INDEX) continue;
      scopeOf(s.labels[GROUP_LABEL])?.latencyBuckets.push({ labels: { le: s.labels.le ?? "" }, values: s.values });
    }
  };
  await Promise.all([
    collectSignals().catch((err: unknown) => (result.error = messageOf(err))),
    collectLatency().catch((err: unknown) => (result.latencyError = messageOf(err))),
  ]);
  return result;
}

/** The configured per-RPC metric of the cluster's plugins: its PromQL on Prometheus, else its metric names. */
async function queryPerRpc(
  source: MetricsSource,
  perRpc: PerRpcSettings,
  plugins: readonly string[],
  range: RangeSpec,
): Promise<PerRpcData> {
  const usePromql = usesPerRpcPromql(perRpc, source.queryRange !== null);
  const signal = describePerRpcSignal(perRpc, usePromql, source.signal);
  const source_ = !usePromql && readsPluginMeter(perRpc) ? "meter" : "configured";
  const none: PerRpcSeries = { calls: [], buckets: [], durationSums: [], durationCounts: [], restarts: [] };
  try {
    const series = usePromql ? await queryPerRpcPromql(source, perRpc, range) : await queryPerRpcMetrics(source, perRpc, plugins, range);
    return { ...none, ...series, source: source_, error: null, signal };
  } catch (err) {
    return { ...none, source: source_, error: messageOf(err), signal };
  }
}

type PerRpcSeries = Pick<PerRpcData, "calls" | "buckets" | "durationSums" | "durationCounts" | "restarts">;

async function queryPerRpcPromql(source: MetricsSource, perRpc: PerRpcSettings, range: RangeSpec): Promise<Partial<PerRpcSeries>> {
  const render = (text: string, path: string) => {
    const rendered = renderPromqlTemplate(text, { window: `${range.stepSeconds}s` });
    if (!rendered.ok) throw new Error(`${path} needs ${rendered.missing.join(", ")}`);
    const problem = describeTemplateError(path, text);
    if (problem) throw new Error(problem);
    return rendered.promql;
  };
  const calls = await source.queryRange!(render(perRpc.promql!.calls!, "plugins.perRpc.promql.calls"), range);
  const buckets = perRpc.promql?.durationBuckets
    ? await source.queryRange!(render(perRpc.promql.durationBuckets, "plugins.perRpc.promql.durationBuckets"), range)
    : [];
  return { calls, buckets };
}

async function queryPerRpcMetrics(
  source: MetricsSource,
  perRpc: PerRpcSettings,
  plugins: readonly string[],
  range: RangeSpec,
): Promise<Partial<PerRpcSeries>> {
  if (!perRpc.callsMetric) throw new Error("plugins.perRpc.promql needs Prometheus; set callsMetric for the scrape mode");
  const filter = { plugin: [...plugins] };
  // Every figure exactly (k failures of n read k of n; quantiles from the same counts as the calls).
  const calls = await source.increase({ metric: perRpc.callsMetric, filter, by: ["plugin", "method", "outcome"], exact: true }, range);
  // A metric that has no calls of these plugins (no meter in this cluster) needs no further query.
  if (calls.length === 0) return { calls };
  const histogram = (suffix: string, by: string[]) =>
    perRpc.durationMetric
      ? source.increase({ metric: `${perRpc.durationMetric}${suffix}`, filter, by, exact: true }, range)
      : Promise.resolve([]);
  const [buckets, durationSums, durationCounts, restarts] = await Promise.all([
    histogram("_bucket", ["plugin", "method", "le"]),
    histogram("_sum", ["plugin", "method"]),
    histogram("_count", ["plugin", "method"]),
    readsPluginMeter(perRpc) ? source.increase({ metric: PLUGIN_METER_FAMILY.restarts, filter, by: ["plugin"], exact: true }, range) : [],
  ]);
  return { calls, buckets, durationSums, durationCounts, restarts };
}

// ── Records: what Rollscope stored about each scope's Rollouts ──────────────────────────────────────────────────

async function loadScopeRecords(repos: Repositories, scopes: readonly Scope[], window: HealthWindow): Promise<ScopeRecords[]> {
  const records: ScopeRecords[] = [];
  // One scope after another: each reads the database, which serves one query at a time anyway. SQLite answers
  // synchronously, so each scope waits for a turn of the event loop of its own: twenty clusters' reads back to back
  // held it for up to 158 ms (a benchmark's server profile), delaying every stream meanwhile.
  for (const scope of scopes) {
    await nextEventLoopTurn();
    const [events, unverified] = await Promise.all([
      loadWarningEvents(repos, scope.cluster, toRolloutRefs(scope.rollouts), window.fromMs).catch(() => null),
      loadUnverified(repos, scope.cluster, scope.rollouts, window.nowMs).catch(() => null),
    ]);
    records.push({ events, unverified });
  }
  return records;
}

async function loadWarningEvents(
  repos: Repositories,
  cluster: string,
  rollouts: readonly RolloutRef[],
  fromMs: number,
): Promise<PluginWarningEvent[]> {
  if (rollouts.length === 0) return [];
  // A plugin used by hundreds of Rollouts would make a query of hundreds of OR terms; read the cluster's warnings
  // in the window instead and keep this plugin's.
  const few = rollouts.length <= MAX_FILTER_VALUES;
  const wanted = new Set(rollouts.map((r) => `${r.namespace}/${r.name}`));
  const found = await repos.rolloutEvents.listWarnings(cluster, few ? rollouts : null, new Date(fromMs), few ? 500 : 5_000);
  const rows = few ? found : found.filter((row) => wanted.has(`${row.namespace}/${row.rollout}`)).slice(0, 500);
  return rows.map((row) => ({
    namespace: row.namespace,
    rollout: row.rollout,
    reason: row.reason,
    message: row.message,
    count: row.count,
    lastAt: row.lastAt.toISOString(),
  }));
}

/** Rollouts whose weights are not verified now, with how long from their recorded samples. */
async function loadUnverified(
  repos: Repositories,
  cluster: string,
  rollouts: readonly FleetRollout[],
  nowMs: number,
): Promise<UnverifiedRolloutView[]> {
  const out: UnverifiedRolloutView[] = [];
  for (const rollout of rollouts) {
    if (rollout.appliedWeights?.verified !== false) continue;
    const ref = { namespace: rollout.namespace ?? "", name: rollout.name };
    const rows = await repos.rolloutSamples.listRecentVerification({ cluster, ...ref }, 500);
    const samples = rows.map((row) => ({ atMs: row.at.getTime(), verified: row.verified }));
    out.push(describeUnverifiedRollout(cluster, ref, samples, nowMs));
  }
  return out;
}

/**
 * The burn windows are read from Prometheus at most every minute (1 hour) and every 5 minutes (24 hours) per cluster
 * and plugin membership (BURN_READ_EVERY_MS), in the background of the report that finds them older, which uses the
 * previous read (a scrape-mode source reads its rows anyway). They were the report's most expensive queries (an hour
 * and a day of every Rollout's counters), repeated by every refresh of the report (every 10 s while pages ask) for
 * every cluster, while a minute moves an hour's window by a sixtieth and 5 minutes a day's by a 288th. A read older
 * than three times that is waited for, so a failing Prometheus shows.
 */
interface BurnReads {
  hour: ReusedReads<Map<string, DerivedSignalSeries>>;
  day: ReusedReads<Map<string, DerivedSignalSeries>>;
}

function burnReadsOf(app: AppContext): BurnReads {
  return app.serviceState.getOrCreate("plugin-health:burn", () => ({
    hour: new ReusedReads<Map<string, DerivedSignalSeries>>(BURN_READ_EVERY_MS["1h"], 3 * BURN_READ_EVERY_MS["1h"]),
    day: new ReusedReads<Map<string, DerivedSignalSeries>>(BURN_READ_EVERY_MS["24h"], 3 * BURN_READ_EVERY_MS["24h"]),
  }));
}

// ── Shared: one computation answers every request for the same view ─────────────────────────────────────────────

/**
 * One health report answers every request for the same view: its inputs change at Prometheus' scrape interval at
 * best, while a report costs five grouped queries per cluster. Fresh for 10 s; up
 * to 60 s old it is still answered at once, marked `refreshing`, while one refresh runs (the page shows `computedAt`
 * and asks again 5 s later); concurrent requests share the computation in flight.
 */
function sharedHealthOf(app: AppContext): SharedResult<ComputedHealthReport> {
  return app.serviceState.getOrCreate("plugin-health:shared", () =>
    createSharedResult({
      compute: (key) => getPluginHealth(app, JSON.parse(key) as PluginHealthQuery),
      freshMs: 10_000,
      staleMs: 60_000,
    }),
  );
}

/**
 * The view the plugins page opens with (range 1h, every cluster, no plugin filter) is kept computed in the
 * background: computed once when the fleet has its first list (when every cluster's metrics come from Prometheus; in
 * scrape mode at the first request instead, see everyClusterOnPrometheus), then every 30 s while someone asked for it
 * in the last 10 minutes (an idle dashboard stops querying Prometheus; the next request resumes, waiting only if the
 * kept report is older than 60 s). Other views are computed on demand and shared as above.
 */
const DEFAULT_VIEW: PluginHealthQuery = { range: "1h" };
const KEPT_EVERY_MS = 30_000;
const KEPT_IDLE_AFTER_MS = 10 * 60_000;
/** On globalThis: instrumentation starts it and the route handler reads it, and they are separate module instances. */
const KEPT_KEY = Symbol.for("rollscope.keptPluginHealth");
const keptHealth: WeakMap<AppContext, KeptResult<ComputedHealthReport>> = ((
  globalThis as { [KEPT_KEY]?: WeakMap<AppContext, KeptResult<ComputedHealthReport>> }
)[KEPT_KEY] ??= new WeakMap());

/** Starts keeping the default view's report (see DEFAULT_VIEW); `ready` is what the first computation waits for. Returns the stop. */
export function startKeptPluginHealth(app: AppContext, ready?: () => Promise<void>): () => void {
  let kept = keptHealth.get(app);
  if (!kept) {
    kept = createKeptResult({
      name: "plugin health (default view)",
      compute: () => getPluginHealth(app, DEFAULT_VIEW),
      ready,
      computeAtStart: everyClusterOnPrometheus(app),
      everyMs: KEPT_EVERY_MS,
      freshMs: 10_000,
      staleMs: 60_000,
      idleAfterMs: KEPT_IDLE_AFTER_MS,
      now: () => app.now(),
    });
    keptHealth.set(app, kept);
  }
  kept.start();
  return () => kept.stop();
}

/**
 * Whether the report can be computed at start without holding up the first page loads: from Prometheus it is mostly
 * waiting for answers; a cluster in scrape mode reads its samples from the database on the event loop (SQLite is
 * synchronous), which at start competed with the first load (the cost curve's first row at 10,000 Rollouts: 5.0 s with
 * it, 0.6 s without). Then the first request computes it, and the refreshes keep it from there.
 */
function everyClusterOnPrometheus(app: AppContext): boolean {
  return app.config.clusters.every((cluster) => Boolean(cluster.prometheus));
}

function isDefaultView(input: PluginHealthQuery): boolean {
  return input.range === DEFAULT_VIEW.range && !input.cluster && !input.plugin;
}

interface ReportState {
  value: ComputedHealthReport;
  refreshing: boolean;
  refreshError: string | null;
}

async function reportFor(app: AppContext, input: PluginHealthQuery): Promise<ReportState> {
  // An unknown cluster is refused before it can take a place among the shared reports.
  if (input.cluster) app.fleet.clusterOrThrow(input.cluster);
  const kept = isDefaultView(input) ? keptHealth.get(app) : undefined;
  if (kept) return kept.get();
  const { value, refreshing } = await sharedHealthOf(app).get(
    JSON.stringify({ range: input.range, cluster: input.cluster, plugin: input.plugin }),
  );
  return { value, refreshing, refreshError: null };
}

/** The report in its state, as computed (with the Rollouts behind each view, for the read filter). */
function stateOf({ value, refreshing, refreshError }: ReportState): ComputedHealthReport {
  return refreshError === null ? { ...value, refreshing } : { ...value, refreshing, refreshError };
}

/**
 * The JSON text of each state a report was answered in (refreshing or not, the refresh's error), kept with the report
 * itself: a report is immutable once computed, and at 20 clusters its text is hundreds of kilobytes, which took about
 * 4.5 ms of the event loop per request to serialize (a fifth of the server's CPU under five polling clients).
 */
const serializedStates = new WeakMap<ComputedHealthReport, Map<string, SerializedJson<PluginHealthReport>>>();

function serializedAnswerOf(state: ReportState): SerializedJson<PluginHealthReport> {
  let byState = serializedStates.get(state.value);
  if (!byState) serializedStates.set(state.value, (byState = new Map()));
  const key = `${state.refreshing}\n${state.refreshError ?? ""}`;
  let json = byState.get(key);
  if (!json) byState.set(key, (json = serializeJson(toHealthAnswer(stateOf(state)))));
  return json;
}

/** The kept or shared report, with the Rollouts it lists limited to those the user may read (see readablePluginHealth). */
export async function getSharedPluginHealth(
  app: AppContext,
  { scope, ...input }: PluginHealthQuery & { scope: ReadScope },
): Promise<PluginHealthReport> {
  const report = stateOf(await reportFor(app, input));
  return toHealthAnswer(
    scope.clusters === null ? report : readablePluginHealth(report, (cluster, namespace) => canReadObject(scope, cluster, namespace)),
  );
}

/**
 * As {@link getSharedPluginHealth}, as JSON text: a user who may read every cluster gets the shared report's text,
 * serialized once per report and state however many requests ask; a narrower read scope gets its own filtered copy.
 */
export async function getSharedPluginHealthJson(
  app: AppContext,
  { scope, ...input }: PluginHealthQuery & { scope: ReadScope },
): Promise<SerializedJson<PluginHealthReport>> {
  if (scope.clusters !== null) return serializeJson(await getSharedPluginHealth(app, { ...input, scope }));
  return serializedAnswerOf(await reportFor(app, input));
}
