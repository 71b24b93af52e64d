import { writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { ensurePluginMeterBinaries } from "../plugin-meter/build";
import { CONTROLLER_NAMESPACE, SAMPLE_ROUTER_PLUGIN, type K8sObject } from "./manifests";
import { assertPortFree, freePort } from "./net";
import type { ScrapeTarget } from "./prometheus";

/**
 * The real cluster's plugins, each registered in argo-rollouts-config through rollscope-plugin-meter (plugin-meter/),
 * as docs/plugins.md tells an operator to: `location` is the meter, `args` name the kind, the real plugin, the
 * address of the meter's /metrics and its state folder. Upstream's sample router keeps its name (every real-cluster
 * test routes through it); the metric-provider and step samples of the same module and our test-only faulty router
 * (test/plugins/faulty-router) are registered beside it. Prometheus scrapes every meter as it scrapes the controller.
 */

/** The test-only router that fails or delays calls on command (`POST <controlUrl>/faults`). */
export const FAULTY_ROUTER_PLUGIN = "rollscope/faulty-router";
const SAMPLE_METRIC_PLUGIN = "argoproj/sample-prometheus";
const SAMPLE_STEP_PLUGIN = "argoproj/step-sample";

export type MeteredKind = "trafficRouter" | "metricProvider" | "step";

export interface MeteredPlugin {
  name: string;
  kind: MeteredKind;
  /** host:port of the meter's /metrics (127.0.0.1). */
  metricsAddress: string;
}

/** Where the real cluster's meters serve, and the faulty router's control endpoint. */
export interface PluginMetersInfo {
  plugins: MeteredPlugin[];
  /** The faulty router's control endpoint: POST /faults, DELETE /faults, GET /calls. */
  faultyRouterControlUrl: string;
}

export interface PluginMeters extends PluginMetersInfo {
  /** argo-rollouts-config with every plugin behind its meter (applied before the controller starts). */
  configMap: K8sObject;
  /** One Prometheus job per meter. */
  scrapeTargets: ScrapeTarget[];
}

async function claimPort(what: string): Promise<number> {
  const port = await freePort();
  await assertPortFree(port, what);
  return port;
}

/**
 * Builds (or takes from the cache) the meter and the test plugins, picks a free port per meter and one for the faulty
 * router's control endpoint, and returns argo-rollouts-config registering them all through the meter.
 * `sampleRouterPath`: upstream's sample router as the real cluster already builds it (realcluster/build.ts).
 */
export async function preparePluginMeters(workDir: string, sampleRouterPath: string, log: (line: string) => void): Promise<PluginMeters> {
  const bin = await ensurePluginMeterBinaries(log);
  const location = `file://${bin.meter}`;
  const stateDir = path.join(workDir, "plugin-meter-state");
  const entries: Array<{ name: string; kind: MeteredKind; plugin: string; extra?: string[] }> = [];
  const controlPort = await claimPort("faulty router's control endpoint");
  entries.push(
    { name: SAMPLE_ROUTER_PLUGIN, kind: "trafficRouter", plugin: sampleRouterPath },
    {
      name: FAULTY_ROUTER_PLUGIN,
      kind: "trafficRouter",
      plugin: bin.faultyRouter,
      extra: ["--", `--control-address=127.0.0.1:${controlPort}`],
    },
    { name: SAMPLE_METRIC_PLUGIN, kind: "metricProvider", plugin: bin.metricsSample },
    { name: SAMPLE_STEP_PLUGIN, kind: "step", plugin: bin.stepSample, extra: ["--plugin-arg=--seed", "--plugin-arg=1"] },
  );
  const plugins: MeteredPlugin[] = [];
  const registered: Record<MeteredKind, Array<{ name: string; location: string; args: string[] }>> = {
    trafficRouter: [],
    metricProvider: [],
    step: [],
  };
  for (const e of entries) {
    const metricsAddress = `127.0.0.1:${await claimPort(`plugin meter of ${e.name}`)}`;
    plugins.push({ name: e.name, kind: e.kind, metricsAddress });
    registered[e.kind].push({
      name: e.name,
      location,
      args: [
        `--kind=${e.kind}`,
        `--name=${e.name}`,
        `--plugin=${e.plugin}`,
        `--metrics-address=${metricsAddress}`,
        `--state-dir=${path.join(stateDir, e.name.replace("/", "_"))}`,
        ...(e.extra ?? []),
      ],
    });
  }
  const configMap: K8sObject = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "argo-rollouts-config", namespace: CONTROLLER_NAMESPACE },
    data: {
      trafficRouterPlugins: stringify(registered.trafficRouter),
      metricProviderPlugins: stringify(registered.metricProvider),
      stepPlugins: stringify(registered.step),
    },
  };
  const faultyRouterControlUrl = `http://127.0.0.1:${controlPort}`;
  // For a person at the cluster (realcluster/README.md): where each meter serves and where to inject faults.
  writeFileSync(path.join(workDir, "plugin-meters.json"), `${JSON.stringify({ plugins, faultyRouterControlUrl }, null, 2)}\n`);
  log(`plugins through rollscope-plugin-meter: ${plugins.map((p) => `${p.name} (/metrics on ${p.metricsAddress})`).join(", ")}`);
  log(`faulty router's control endpoint (POST /faults, GET /calls): ${faultyRouterControlUrl}`);
  return {
    plugins,
    faultyRouterControlUrl,
    configMap,
    scrapeTargets: plugins.map((p) => ({ job: `plugin-meter-${p.name.replace("/", "-")}`, url: `http://${p.metricsAddress}/metrics` })),
  };
}
