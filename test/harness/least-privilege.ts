import { writeFileSync } from "node:fs";
import { stringify } from "yaml";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { RolloutAction } from "@/lib/actions/schema";
import { FULL_READ_SCOPE } from "@/lib/auth/read-scope";
import { KUBECONFIG_IDENTITY, type AuthUser } from "@/lib/auth/types";
import { parseConfig } from "@/lib/config/load-config";
import { ApiError } from "@/lib/errors/api-error";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { WatchedKind } from "@/lib/fleet/cluster-watcher";
import { ControllerMetricsScraper } from "@/lib/metrics/scraper";
import { listScrapeFamilies } from "@/lib/plugins/per-rpc";
import { createAppContext, type AppContext } from "@/lib/server/app-context";
import { listClusters } from "@/lib/services/clusters";
import { getClusterPlugins, getPluginsOverview } from "@/lib/services/plugin-registry";
import { resolveReadScope } from "@/lib/services/read-scope";
import { getRolloutActionsView, runRolloutAction } from "@/lib/services/rollout-actions";
import { getRolloutWorkload } from "@/lib/services/rollout-workload";
import { waitUntil } from "@/realcluster/net";

/**
 * Rollscope as the chart's ServiceAccount sees the cluster: a context of its own (its own watches) per scenario,
 * on a kubeconfig holding only the ServiceAccount's token, and the checks that show what a user would miss.
 */

export const NO_SIGN_IN: AuthUser = { via: "none", name: KUBECONFIG_IDENTITY, groups: [], sessionId: null };

/** The kubeconfig Rollscope gets: the cluster's CA and server, and the ServiceAccount's token (TokenRequest). */
export function writeServiceAccountKubeconfig(file: string, server: string, caData: string, token: string): void {
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "cluster", cluster: { server, "certificate-authority-data": caData } }],
    users: [{ name: "rollscope", user: { token } }],
    contexts: [{ name: "rollscope", context: { cluster: "cluster", user: "rollscope" } }],
    "current-context": "rollscope",
  };
  writeFileSync(file, stringify(config), { mode: 0o600 });
}

let scenarioCount = 0;

/**
 * A Rollscope context on the ServiceAccount's kubeconfig with the chart's configuration. Each gets a cluster name of
 * its own: Rollscope caches access reviews and analysis templates per cluster name, and a scenario must ask afresh.
 */
export function startScenario(
  kubeconfigPath: string,
  chartConfig: Record<string, unknown>,
  db: PrismaClient,
): { app: AppContext; cluster: string } {
  const cluster = `real-${++scenarioCount}`;
  // The chart's in-cluster cluster, reached through the token's kubeconfig instead of a pod's mounted token.
  const clusters = (chartConfig.clusters as Array<Record<string, unknown>>).map(({ inCluster: _inCluster, ...c }) => ({
    ...c,
    name: cluster,
    kubeconfig: { path: kubeconfigPath },
  }));
  const config = parseConfig(stringify({ ...chartConfig, clusters }), `the chart's configuration (cluster ${cluster})`);
  return { app: createAppContext({ config, db }), cluster };
}

/** Until every watch of the cluster has listed or failed; returns the states. */
export async function settledWatches(app: AppContext, cluster: string): Promise<Record<string, { status: string; error: string | null }>> {
  let watches: Record<string, { status: string; error: string | null }> = {};
  await waitUntil(
    `cluster ${cluster}: the watches did not settle`,
    async () => {
      watches = app.fleet.clusterOrThrow(cluster).state().watches;
      const kinds: WatchedKind[] = ["rollouts", "events", "analysisruns", "configmap", "controllerPods"];
      return kinds.every((k) => watches[k] && watches[k].status !== "connecting");
    },
    30_000,
  );
  return watches;
}

/** The message a watch of this kind shows on the cluster page once it fails (it must fail within 30 s). */
export async function watchError(app: AppContext, cluster: string, kind: WatchedKind): Promise<string> {
  let error = "";
  await waitUntil(
    `the ${kind} watch of ${cluster} did not fail`,
    async () => {
      const state = app.fleet.clusterOrThrow(cluster).state();
      const watch = state.watches[kind];
      error = watch && watch.status !== "connected" ? (watch.error ?? "") : "";
      return error !== "";
    },
    30_000,
  );
  return `cluster page, ${kind} watch: ${error}`;
}

/** The plugins page's errors for the cluster. */
export async function pluginPageErrors(app: AppContext, cluster: string): Promise<string[]> {
  const overview = await getPluginsOverview(app, { scope: FULL_READ_SCOPE });
  return overview.clusters.find((c) => c.cluster === cluster)?.errors ?? [];
}

/** One scrape of the controller's metrics (through the service proxy), as the plugins page then reports it. */
export async function scrapeAndReport(app: AppContext, cluster: string): Promise<{ ok: boolean; error: string | null }> {
  const scraper = new ControllerMetricsScraper(app.fleet, app.repos.metricSamples, (c) => listScrapeFamilies(app.config, c));
  await scraper.scrapeCluster(cluster);
  const overview = await getPluginsOverview(app, { scope: FULL_READ_SCOPE });
  const metrics = overview.clusters.find((c) => c.cluster === cluster)?.metrics;
  return { ok: metrics?.ok === true, error: metrics?.error ?? null };
}

/** The actions panel of a Rollout for this user, once the watch has it. */
export async function actionsView(
  app: AppContext,
  rollout: { cluster: string; namespace: string; name: string },
  user: AuthUser,
): Promise<RolloutActionsView> {
  await waitUntil(
    `${rollout.cluster} does not show ${rollout.name}`,
    async () => app.fleet.clusterOrThrow(rollout.cluster).rollout(rollout.namespace, rollout.name) !== undefined,
    30_000,
  );
  return getRolloutActionsView(app, { rollout, user });
}

/** Why the actions panel disables this action (the reason the user reads next to the button). */
export async function disabledReason(
  app: AppContext,
  rollout: { cluster: string; namespace: string; name: string },
  user: AuthUser,
  action: RolloutAction,
): Promise<string> {
  const view = await actionsView(app, rollout, user);
  const option = view.actions[action];
  if (option.enabled) throw new Error(`${action} is still enabled for ${user.name}`);
  return `actions panel, ${action}: ${option.reason ?? ""}`;
}

/**
 * Runs an action as the panel would once it is enabled: waits for it to be offered (the controller and the watch
 * catch up), sends it with the state shown, and retries when that state went stale in between.
 */
export async function act(
  app: AppContext,
  rollout: { cluster: string; namespace: string; name: string },
  user: AuthUser,
  action: RolloutAction,
): Promise<string> {
  let lastError = "";
  let message = "";
  let failure: Error | null = null;
  await waitUntil(
    `${action} on ${rollout.name} did not succeed (last: ${lastError || "never enabled"})`,
    async () => {
      const view = await actionsView(app, rollout, user);
      if (!view.actions[action].enabled) return false;
      try {
        const result = await runRolloutAction(app, {
          rollout,
          request: {
            action,
            expected: {
              ...view.expected,
              resourceVersion: view.expected.resourceVersion ?? undefined,
              revision: view.expected.revision ?? undefined,
            },
          },
          caller: { user, requestId: `lp-${action}-${Date.now()}`, clientAddress: null },
        });
        message = result.message;
        return true;
      } catch (err) {
        lastError = (err as Error).message;
        // The Rollout moved on between the view and the action (the controller is still at work): look again.
        if (err instanceof ApiError && (err.code === "stale" || err.code === "conflict")) return false;
        failure = err as Error;
        return true;
      }
    },
    30_000,
  );
  if (failure) throw failure;
  return message;
}

/** Whether a signed-in user sees the cluster's Rollouts, and the reason shown when not. */
export async function readError(app: AppContext, cluster: string, user: AuthUser): Promise<string | null> {
  const scope = await resolveReadScope(app, user);
  return listClusters(app, { scope }).clusters.find((c) => c.name === cluster)?.readError ?? null;
}

/** The detail page's revisions card (ReplicaSets and Pods, read on demand): what it shows instead, or null when read. */
export async function revisionsCardError(
  app: AppContext,
  rollout: { cluster: string; namespace: string; name: string },
): Promise<string | null> {
  await actionsView(app, rollout, NO_SIGN_IN);
  return getRolloutWorkload(app, rollout).then(
    (workload) => (workload.info.replicaSets.length > 0 ? null : "no ReplicaSets shown"),
    (err: Error) => err.message,
  );
}

/** The detail page's note about the Rollout's Experiments (null: listed), once the watch shows the Rollout. */
export async function experimentsNote(
  app: AppContext,
  rollout: { cluster: string; namespace: string; name: string },
): Promise<string | null> {
  await actionsView(app, rollout, NO_SIGN_IN);
  return (await getRolloutWorkload(app, rollout)).experimentsError ?? null;
}

/** The cluster page's controller card: the note it shows about the controller's Deployment (null: none). */
export async function controllerCardNote(app: AppContext, cluster: string): Promise<string | null> {
  return (await getClusterPlugins(app, { cluster, scope: FULL_READ_SCOPE })).controller.deploymentNote;
}
