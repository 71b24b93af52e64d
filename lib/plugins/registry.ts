import { z } from "zod";
import { parsePluginConfigMap, PLUGIN_CONFIG_MAP_NAME, type PluginConfig, type PluginConfigMapInput, type PluginKind } from "./config";
import type { DerivePluginFindingsInput, Finding } from "./findings";
import { explainPluginError } from "./troubleshooting";
import { collectPluginUsage, type AnalysisTemplateLike, type PluginReference, type RolloutLike } from "./usage";
import type { ControllerView, FleetMatrixRow, MatrixCell, PluginClusterView, PluginUserView, RegisteredPluginView } from "./view-types";

const podSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), labels: z.record(z.string(), z.string()).optional() }),
  status: z
    .looseObject({
      startTime: z.string().optional(),
      containerStatuses: z
        .array(
          z.looseObject({
            name: z.string().optional(),
            state: z
              .looseObject({
                running: z.looseObject({ startedAt: z.string().optional() }).optional(),
                waiting: z.looseObject({ reason: z.string().optional(), message: z.string().optional() }).optional(),
              })
              .optional(),
            lastState: z
              .looseObject({ terminated: z.looseObject({ message: z.string().optional(), reason: z.string().optional() }).optional() })
              .optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});

type Pod = z.infer<typeof podSchema>;

function isControllerPod(pod: Pod): boolean {
  const name = pod.metadata.labels?.["app.kubernetes.io/name"];
  if (name !== undefined) return name === "argo-rollouts";
  return pod.metadata.name.startsWith("argo-rollouts-") && !pod.metadata.name.includes("dashboard");
}

/**
 * The controller as its Pods show it: when its container last started (when it read argo-rollouts-config; the
 * earliest across replicas, since each read it at its own start) and whether it is crash-looping, with the
 * last fatal log line when the container status has it.
 */
export function deriveControllerView(rawPods: readonly unknown[]): ControllerView {
  const pods = rawPods.flatMap((raw) => {
    const parsed = podSchema.safeParse(raw);
    return parsed.success && isControllerPod(parsed.data) ? [parsed.data] : [];
  });
  if (pods.length === 0) return { podName: null, startedAt: null, crashLooping: false, reason: null, hint: null };
  const starts = pods
    .map((pod) => ({ pod, at: pod.status?.containerStatuses?.[0]?.state?.running?.startedAt ?? pod.status?.startTime ?? null }))
    .filter((entry): entry is { pod: Pod; at: string } => entry.at !== null)
    .sort((a, b) => a.at.localeCompare(b.at));
  const crashing = pods.find((pod) => pod.status?.containerStatuses?.some((c) => c.state?.waiting?.reason === "CrashLoopBackOff"));
  const crashStatus = crashing?.status?.containerStatuses?.find((c) => c.state?.waiting?.reason === "CrashLoopBackOff");
  const reason = crashStatus
    ? (crashStatus.lastState?.terminated?.message ?? crashStatus.state?.waiting?.message ?? "CrashLoopBackOff")
    : null;
  return {
    podName: (crashing ?? starts[0]?.pod ?? pods[0]).metadata.name,
    startedAt: starts[0]?.at ?? null,
    crashLooping: crashing !== undefined,
    reason,
    hint: reason ? explainPluginError(reason) : null,
  };
}

function toUserView(reference: PluginReference): PluginUserView {
  return {
    kind: reference.resource.kind,
    namespace: reference.resource.namespace ?? null,
    name: reference.resource.name,
    path: reference.path,
    viaTemplate: reference.viaTemplate ? `${reference.viaTemplate.kind}/${reference.viaTemplate.name}` : null,
  };
}

export interface ClusterRegistryInput {
  cluster: string;
  label: string | null;
  connection: string;
  controllerNamespace: string;
  configMap: PluginConfigMapInput | null;
  controllerPods: readonly unknown[];
  rollouts: readonly RolloutLike[];
  analysisTemplates: readonly AnalysisTemplateLike[];
}

const configMapSchema = z.looseObject({
  metadata: z
    .looseObject({
      name: z.string().optional(),
      namespace: z.string().optional(),
      resourceVersion: z.string().optional(),
      creationTimestamp: z.string().optional(),
      managedFields: z.array(z.looseObject({ time: z.string().optional() })).optional(),
    })
    .optional(),
  data: z.record(z.string(), z.string()).optional(),
});

/** `argo-rollouts-config` among a cluster's watched ConfigMaps, as watched (undefined when absent). */
export function argoRolloutsConfigMapOf<T extends { metadata?: { name?: string } }>(configMaps: readonly T[]): T | undefined {
  return configMaps.find((o) => o.metadata?.name === PLUGIN_CONFIG_MAP_NAME);
}

/** A watched `argo-rollouts-config` read as a ConfigMap; null when absent or not shaped like one. */
export function readArgoRolloutsConfigMap(found: unknown): PluginConfigMapInput | null {
  if (found === undefined) return null;
  const parsed = configMapSchema.safeParse(found);
  return parsed.success ? parsed.data : null;
}

/** `argo-rollouts-config` among a cluster's watched ConfigMaps; null when absent or not shaped like a ConfigMap. */
export function findArgoRolloutsConfigMap(configMaps: ReadonlyArray<{ metadata?: { name?: string } }>): PluginConfigMapInput | null {
  return readArgoRolloutsConfigMap(argoRolloutsConfigMapOf(configMaps));
}

export interface ClusterRegistry {
  view: Omit<PluginClusterView, "metrics" | "errors">;
  config: PluginConfig;
  findingsInput: DerivePluginFindingsInput;
}

/** One cluster's registered plugins with who uses them, the entry errors with hints, and the findings' input. */
export function buildClusterRegistry(input: ClusterRegistryInput): ClusterRegistry {
  const config = parsePluginConfigMap(input.configMap);
  const usage = collectPluginUsage(input.rollouts, input.analysisTemplates);
  const controller = deriveControllerView(input.controllerPods);
  const usersOf = (kind: PluginKind, name: string) =>
    usage.references.filter((ref) => ref.kind === kind && ref.plugin === name).map(toUserView);
  const plugins: RegisteredPluginView[] = config.plugins.map((plugin) => ({ ...plugin, usedBy: usersOf(plugin.kind, plugin.name) }));
  const registered = new Set(config.plugins.map((p) => `${p.kind}/${p.name}`));
  const unregisteredKeys = new Map<string, { kind: PluginKind; name: string }>();
  for (const ref of usage.references) {
    const key = `${ref.kind}/${ref.plugin}`;
    if (!registered.has(key)) unregisteredKeys.set(key, { kind: ref.kind, name: ref.plugin });
  }
  return {
    config,
    findingsInput: {
      cluster: input.cluster,
      config,
      usage,
      controllerNamespace: input.controllerNamespace,
      ...(controller.startedAt ? { controllerStartedAt: controller.startedAt } : {}),
    },
    view: {
      cluster: input.cluster,
      label: input.label,
      connection: input.connection,
      controllerNamespace: input.controllerNamespace,
      configMap: {
        present: config.configMap !== null,
        resourceVersion: config.configMap?.resourceVersion ?? null,
        updatedAt: config.configMap?.updatedAt ?? null,
      },
      controller,
      crashLoopsOnConfig: config.crashLoops,
      entryErrors: config.entryErrors.map((error) => ({ ...error, hint: explainPluginError(error.reason) })),
      plugins,
      unregistered: [...unregisteredKeys.values()].map(({ kind, name }) => ({ kind, name, usedBy: usersOf(kind, name) })),
    },
  };
}

function countFindings(findings: readonly Finding[], cluster: string, plugin: string): { critical: number; warning: number } {
  let critical = 0;
  let warning = 0;
  for (const finding of findings) {
    if (!finding.affected.some((a) => a.cluster === cluster && a.plugin === plugin)) continue;
    if (finding.severity === "critical") critical++;
    else if (finding.severity === "warning") warning++;
  }
  return { critical, warning };
}

/**
 * The fleet matrix: one row per plugin (kind + name) registered or referenced anywhere, one cell per cluster.
 * A cell is `invalid` when the cluster's entry for that name failed validation.
 */
export function buildFleetMatrix(
  clusters: readonly PluginClusterView[],
  findings: readonly Finding[],
): { clusters: string[]; rows: FleetMatrixRow[] } {
  const rows = new Map<string, FleetMatrixRow>();
  const rowOf = (kind: PluginKind, name: string) => {
    const key = `${kind}/${name}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { kind, name, cells: {} }));
    return row;
  };
  for (const cluster of clusters) {
    for (const plugin of cluster.plugins) {
      const row = rowOf(plugin.kind, plugin.name);
      if (row.cells[cluster.cluster]?.state === "registered") {
        row.cells[cluster.cluster].usedBy = Math.max(row.cells[cluster.cluster].usedBy, plugin.usedBy.length);
        continue;
      }
      row.cells[cluster.cluster] = {
        state: "registered",
        location: plugin.location,
        version: plugin.version,
        sha256: plugin.sha256 !== null,
        usedBy: plugin.usedBy.length,
        ...countFindings(findings, cluster.cluster, plugin.name),
      };
    }
    for (const missing of cluster.unregistered) {
      const invalid = cluster.entryErrors.some((e) => e.kind === missing.kind && e.name === missing.name);
      rowOf(missing.kind, missing.name).cells[cluster.cluster] = {
        state: invalid ? "invalid" : "referenced-not-registered",
        location: null,
        version: null,
        sha256: false,
        usedBy: missing.usedBy.length,
        ...countFindings(findings, cluster.cluster, missing.name),
      };
    }
    for (const error of cluster.entryErrors) {
      if (error.name === null || error.index === null) continue;
      const row = rowOf(error.kind, error.name);
      if (row.cells[cluster.cluster]) continue;
      row.cells[cluster.cluster] = {
        state: "invalid",
        location: null,
        version: null,
        sha256: false,
        usedBy: 0,
        ...countFindings(findings, cluster.cluster, error.name),
      };
    }
  }
  const names = clusters.map((c) => c.cluster);
  const absent: MatrixCell = { state: "absent", location: null, version: null, sha256: false, usedBy: 0, critical: 0, warning: 0 };
  const kindOrder: Record<PluginKind, number> = { trafficRouter: 0, metricProvider: 1, step: 2 };
  return {
    clusters: names,
    rows: [...rows.values()]
      .map((row) => ({ ...row, cells: Object.fromEntries(names.map((n) => [n, row.cells[n] ?? absent])) }))
      .sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind] || a.name.localeCompare(b.name)),
  };
}
