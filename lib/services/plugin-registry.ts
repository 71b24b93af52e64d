import "server-only";
import { canReadObject, type ReadScope } from "@/lib/auth/read-scope";
import { messageOf } from "@/lib/errors/message-of";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import { listAnalysisTemplates } from "@/lib/k8s/analysis-templates";
import { listControllerDeployments } from "@/lib/k8s/controller-deployments";
import type { MetricsSourceStatus } from "@/lib/metrics/types";
import { describeControllerStatus } from "@/lib/plugins/controller-status";
import { readablePluginCluster, readablePluginsOverview } from "@/lib/plugins/read-filter";
import { deriveFleetPluginFindings, type DerivePluginFindingsInput } from "@/lib/plugins/findings";
import { buildClusterRegistry, buildFleetMatrix, findArgoRolloutsConfigMap } from "@/lib/plugins/registry";
import { listConfigProblems } from "@/lib/plugins/template-check";
import type { AnalysisTemplateLike } from "@/lib/plugins/usage";
import type { ClusterPluginsResponse } from "@/lib/contracts/plugins";
import type { PluginClusterView, PluginsOverview } from "@/lib/plugins/view-types";
import type { AppContext } from "@/lib/server/app-context";
import { findStuckRouters } from "./measured-traffic";

/**
 * The plugins page: per cluster, what argo-rollouts-config registers (as the controller would parse it), who
 * uses each plugin, the controller's state; the fleet matrix; and every finding, including stuck routers — with
 * users and findings limited to what the user may read (see readablePluginsOverview).
 */
export async function getPluginsOverview(app: AppContext, { scope }: { scope: ReadScope }): Promise<PluginsOverview> {
  const clusters = app.fleet.clusters;
  const described = await Promise.all(clusters.map((cluster) => describeCluster(app, cluster)));
  const stuck = await Promise.all(
    clusters.map((cluster) =>
      findStuckRouters(app, cluster).catch((err: unknown) => ({
        findings: [],
        problems: [`stuck-router check failed: ${messageOf(err)}`],
      })),
    ),
  );
  const findings = [...deriveFleetPluginFindings(described.map((d) => d.findingsInput)), ...stuck.flatMap((s) => s.findings)];
  // What the stuck-router check could not do is the cluster's problem to show, not something to swallow.
  const views = described.map((d, i) =>
    stuck[i].problems.length > 0 ? { ...d.view, errors: [...d.view.errors, ...stuck[i].problems] } : d.view,
  );
  const overview: PluginsOverview = {
    generatedAt: new Date(app.now()).toISOString(),
    clusters: views,
    matrix: buildFleetMatrix(views, findings),
    findings,
    configProblems: listConfigProblems(
      app.config.plugins,
      clusters.map((c) => ({ name: c.name, plugins: c.config.plugins })),
    ),
  };
  return scope.clusters === null
    ? overview
    : readablePluginsOverview(overview, (cluster, namespace) => canReadObject(scope, cluster, namespace));
}

/**
 * The cluster page's plugins card: what this cluster registers (users limited to what the user may read) and its
 * controller — Pods from the watch cache, the Deployment read now; 404 for a cluster not configured.
 */
export async function getClusterPlugins(
  app: AppContext,
  { cluster: name, scope }: { cluster: string; scope: ReadScope },
): Promise<ClusterPluginsResponse> {
  const cluster = app.fleet.clusterOrThrow(name);
  const namespace = cluster.config.controllerNamespace;
  const [{ view }, deployments] = await Promise.all([
    describeCluster(app, cluster),
    listControllerDeployments(cluster.clients.kubeConfig, namespace),
  ]);
  const registry = scope.clusters === null ? view : readablePluginCluster(view, (c, ns) => canReadObject(scope, c, ns));
  const controller = describeControllerStatus({
    namespace,
    pods: cluster.objects("controllerPods"),
    deployments: deployments.items,
    deploymentNote: deployments.note,
  });
  return { cluster: name, registry, controller };
}

/** One cluster's registry from the watcher's caches and its templates; what could not be read is listed as errors. */
async function describeCluster(
  app: AppContext,
  cluster: ClusterWatcher,
): Promise<{ view: PluginClusterView; findingsInput: DerivePluginFindingsInput }> {
  const errors: string[] = [];
  const templates = await listAnalysisTemplates(cluster, app.now()).catch((err: unknown): AnalysisTemplateLike[] => {
    errors.push(`AnalysisTemplates could not be listed (metric-provider plugin usage may be incomplete): ${messageOf(err)}`);
    return [];
  });
  const state = cluster.state();
  const configWatch = state.watches.configmap;
  if (configWatch && configWatch.status !== "connected") {
    errors.push(`argo-rollouts-config is not being watched (${configWatch.status}): ${configWatch.error ?? "no detail"}`);
  }
  const registry = buildClusterRegistry({
    cluster: cluster.name,
    label: state.label,
    connection: state.connection,
    controllerNamespace: cluster.config.controllerNamespace,
    configMap: findArgoRolloutsConfigMap(cluster.objects("configmap")),
    controllerPods: cluster.objects("controllerPods"),
    rollouts: cluster.rolloutUsages(),
    analysisTemplates: templates,
  });
  const source = app.metricsSource(cluster.name);
  const status = await source
    .status()
    .catch((err: unknown): MetricsSourceStatus => ({ ok: false, error: messageOf(err), lastSuccessAt: null }));
  const view: PluginClusterView = { ...registry.view, metrics: { kind: source.kind, signal: source.signal, ...status }, errors };
  return { view, findingsInput: registry.findingsInput };
}
