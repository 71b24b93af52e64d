import type { CanaryStep } from "../controller/types";
import type { KubeObject } from "../store/object-store";
import { analysisTemplates, namespaceObject, rollout, servicesFor, type RolloutBlueprint } from "./builders";
import { pluginConfigMap, trafficPlugin } from "./plugin-catalog";
import { scheduledDriver, type ScheduledUpdate } from "./revision-driver";
import type { Scenario, ScenarioCluster } from "./types";

const NAMESPACES = ["shop", "payments", "search", "platform"];

const STEPS: Record<string, CanaryStep[]> = {
  /** The reference's §1.4 example: waits at step 5 for a promote. */
  standard: [
    { setWeight: 10 },
    { pause: { duration: "2m" } },
    { setHeaderRoute: { name: "header-canary", match: [{ headerName: "X-Canary", headerValue: { exact: "true" } }] } },
    { setWeight: 30 },
    { analysis: { templates: [{ templateName: "success-rate" }] } },
    { pause: {} },
    { setWeight: 60 },
    { pause: { duration: "2m" } },
  ],
  quick: [
    { setWeight: 20 },
    { pause: { duration: "1m" } },
    { setWeight: 50 },
    { pause: { duration: "1m" } },
    { setWeight: 80 },
    { pause: { duration: "1m" } },
  ],
  analysis: [
    { setWeight: 10 },
    { pause: { duration: "1m" } },
    { analysis: { templates: [{ templateName: "success-rate" }] } },
    { setWeight: 50 },
    { pause: { duration: "2m" } },
  ],
  istio: [
    { setWeight: 5 },
    { pause: { duration: "1m" } },
    { setMirrorRoute: { name: "mirror-shadow", percentage: 50, match: [{ method: { exact: "GET" } }] } },
    { setWeight: 25 },
    { pause: { duration: "2m" } },
    { setWeight: 50 },
    { pause: { duration: "2m" } },
  ],
  nginx: [
    { setWeight: 10 },
    { pause: { duration: "1m" } },
    { setCanaryScale: { replicas: 2 } },
    { setWeight: 40 },
    { pause: { duration: "2m" } },
  ],
  experiment: [
    { setWeight: 10 },
    {
      experiment: {
        duration: "1m",
        templates: [
          { name: "baseline", specRef: "stable" },
          { name: "canary", specRef: "canary" },
        ],
      },
    },
    { setWeight: 50 },
    { pause: { duration: "1m" } },
  ],
  /** maxTrafficWeight 1000: weights are per-mille, not per cent. */
  perMille: [
    { setWeight: 50 },
    { pause: { duration: "1m" } },
    { setWeight: 250 },
    { pause: { duration: "1m" } },
    { setWeight: 500 },
    { pause: { duration: "1m" } },
  ],
  stepPlugin: [
    { setWeight: 20 },
    { plugin: { name: "argoproj-labs/sample-step", config: { message: "canary at 20%" } } },
    { setWeight: 60 },
    { pause: { duration: "1m" } },
  ],
};

const gatewayAPI = (ns: string, route: string) => ({ plugin: "argoproj-labs/gatewayAPI", config: { httpRoute: route, namespace: ns } });

interface Entry {
  bp: RolloutBlueprint;
  everyMinutes: number;
  firstAfterSeconds?: number;
}

function prodEntries(region: "eu" | "us"): Entry[] {
  const entries: Entry[] = [
    {
      bp: {
        namespace: "shop",
        name: "checkout",
        version: "1.4.0",
        replicas: 10,
        router: gatewayAPI("shop", "checkout-route"),
        steps: STEPS.standard,
        managedRoutes: ["header-canary"],
        backgroundAnalysis: { templateName: "error-rate", startingStep: 2 },
      },
      everyMinutes: 10,
      firstAfterSeconds: 20,
    },
    {
      bp: {
        namespace: "shop",
        name: "cart",
        version: "2.7.3",
        replicas: 6,
        router: { istio: { virtualService: "cart-vsvc" } },
        steps: STEPS.istio,
        managedRoutes: ["mirror-shadow"],
      },
      everyMinutes: 6,
      firstAfterSeconds: 40,
    },
    {
      bp: {
        namespace: "shop",
        name: "catalog",
        version: "0.18.2",
        replicas: 4,
        router: { plugin: "argoproj-labs/contour", config: { httpProxies: ["catalog"] } },
        steps: STEPS.quick,
      },
      everyMinutes: 5,
      firstAfterSeconds: 10,
    },
    {
      bp: {
        namespace: "shop",
        name: "recommendations",
        version: "3.1.0",
        replicas: 3,
        router: gatewayAPI("shop", "recommendations-route"),
        steps: STEPS.experiment,
      },
      everyMinutes: 9,
    },
    {
      bp: {
        namespace: "payments",
        name: "payments-api",
        version: "5.0.4",
        replicas: 6,
        router: { plugin: "argoproj-labs/openshift", config: { routes: ["payments-api"] } },
        steps: STEPS.analysis,
      },
      everyMinutes: 8,
      firstAfterSeconds: 90,
    },
    {
      bp: {
        namespace: "payments",
        name: "fraud-detector",
        version: "1.12.0",
        replicas: 4,
        router: gatewayAPI("payments", "fraud-detector"),
        steps: STEPS.perMille,
        maxTrafficWeight: 1000,
      },
      everyMinutes: 7,
    },
    {
      bp: { namespace: "search", name: "indexer", version: "4.2.1", replicas: 3, blueGreen: { autoPromotionEnabled: false } },
      everyMinutes: 12,
      firstAfterSeconds: 60,
    },
    {
      bp: {
        namespace: "search",
        name: "search-api",
        version: "2.0.9",
        replicas: 5,
        router: { plugin: "solo-io/glooplatform", config: { routeTableSelector: { labels: { app: "search-api" }, namespace: "search" } } },
        steps: STEPS.quick,
      },
      everyMinutes: 6,
      firstAfterSeconds: 30,
    },
    {
      bp: {
        namespace: "platform",
        name: "gateway-edge",
        version: "1.25.1",
        replicas: 4,
        router: { nginx: { stableIngress: "gateway-edge" } },
        steps: STEPS.nginx,
      },
      everyMinutes: 8,
    },
    {
      bp: {
        namespace: "platform",
        name: "notifications",
        version: "0.9.7",
        replicas: 2,
        router: {
          plugin: "hashicorp/consul",
          config: { serviceName: "notifications", canarySubsetName: "canary", stableSubsetName: "stable" },
        },
        steps: STEPS.quick,
      },
      everyMinutes: 7,
    },
  ];
  if (region === "eu") {
    entries.push({
      bp: {
        namespace: "platform",
        name: "config-sync",
        version: "1.3.0",
        replicas: 2,
        router: gatewayAPI("platform", "config-sync"),
        steps: STEPS.stepPlugin,
      },
      everyMinutes: 10,
    });
  } else {
    entries.push({
      bp: {
        namespace: "payments",
        name: "ledger",
        version: "7.3.2",
        replicas: 4,
        router: gatewayAPI("payments", "ledger"),
        steps: STEPS.analysis,
        analysisOutcome: "Failed",
      },
      everyMinutes: 6,
      firstAfterSeconds: 15,
    });
  }
  return entries;
}

function stagingEntries(): Entry[] {
  return [
    {
      bp: {
        namespace: "shop",
        name: "checkout",
        version: "1.5.0-rc.1",
        replicas: 2,
        router: gatewayAPI("shop", "checkout-route"),
        steps: STEPS.quick,
      },
      everyMinutes: 4,
      firstAfterSeconds: 5,
    },
    {
      bp: {
        namespace: "shop",
        name: "cart",
        version: "2.8.0",
        replicas: 2,
        router: { istio: { virtualService: "cart-vsvc" } },
        steps: STEPS.istio,
        managedRoutes: ["mirror-shadow"],
      },
      everyMinutes: 5,
    },
    {
      bp: {
        namespace: "payments",
        name: "payments-api",
        version: "5.1.0",
        replicas: 2,
        router: { plugin: "argoproj-labs/openshift", config: { routes: ["payments/payments-api"] } },
        steps: STEPS.quick,
      },
      everyMinutes: 5,
    },
    {
      bp: {
        namespace: "payments",
        name: "ledger",
        version: "7.4.0",
        replicas: 2,
        router: gatewayAPI("payments", "ledger"),
        steps: STEPS.analysis,
        analysisOutcome: "Inconclusive",
      },
      everyMinutes: 6,
      firstAfterSeconds: 25,
    },
    {
      bp: { namespace: "search", name: "indexer", version: "4.3.0", replicas: 2, blueGreen: { autoPromotionSeconds: 60 } },
      everyMinutes: 6,
    },
    {
      bp: {
        namespace: "search",
        name: "search-api",
        version: "2.1.0",
        replicas: 2,
        router: { plugin: "solo-io/glooplatform", config: { routeTableSelector: { name: "search-api", namespace: "search" } } },
        steps: STEPS.quick,
      },
      everyMinutes: 4,
    },
    {
      bp: {
        namespace: "platform",
        name: "gateway-edge",
        version: "1.26.0",
        replicas: 2,
        router: { nginx: { stableIngress: "gateway-edge" } },
        steps: STEPS.nginx,
      },
      everyMinutes: 5,
    },
    // Referenced but not registered in staging's argo-rollouts-config: fails every reconcile, no event.
    {
      bp: {
        namespace: "platform",
        name: "notifications",
        version: "0.10.0",
        replicas: 2,
        router: { plugin: "hashicorp/consul", config: { serviceName: "notifications" } },
        steps: STEPS.quick,
      },
      everyMinutes: 5,
      firstAfterSeconds: 20,
    },
  ];
}

const STEP_PLUGINS = [{ name: "argoproj-labs/sample-step", location: "file:///plugins/sample-step-linux-amd64" }];
const METRIC_PLUGINS = [{ name: "argoproj-labs/sample-prometheus", location: "file:///plugins/metric-plugin-linux-amd64" }];

function clusterObjects(entries: Entry[], configMap: KubeObject): KubeObject[] {
  const objects: KubeObject[] = [namespaceObject("argo-rollouts"), configMap];
  for (const ns of NAMESPACES) objects.push(namespaceObject(ns, { team: ns }), ...analysisTemplates(ns));
  for (const { bp } of entries) objects.push(...servicesFor(bp), rollout(bp));
  return objects;
}

/**
 * Three clusters (prod-eu, prod-us, staging) with 8–11 Rollouts each over shop/payments/search/platform, using the
 * gatewayAPI, contour, openshift, glooplatform and consul plugins plus Istio and NGINX, one blue-green each, and
 * failure profiles: flaky contour SetWeight (prod-eu), a stuck glooplatform router and a failing analysis
 * (prod-us), consul referenced but not registered and an inconclusive analysis (staging).
 */
export function demoScenario(): Scenario {
  const prodEu = prodEntries("eu");
  const prodUs = prodEntries("us");
  const staging = stagingEntries();
  const clusters: ScenarioCluster[] = [
    {
      name: "prod-eu",
      labels: { env: "production", region: "eu-west-1" },
      objects: clusterObjects(
        prodEu,
        pluginConfigMap("argo-rollouts", {
          trafficRouterPlugins: [
            trafficPlugin("gatewayAPI", { args: ["-logformat", "json"] }),
            trafficPlugin("contour"),
            trafficPlugin("openshift"),
            trafficPlugin("glooplatform"),
            trafficPlugin("consul"),
          ],
          metricProviderPlugins: METRIC_PLUGINS,
          stepPlugins: STEP_PLUGINS,
        }),
      ),
      pluginProfiles: { "argoproj-labs/contour": { setWeightFailureRate: 0.3 }, "argoproj-labs/gatewayAPI": { latencyMs: 40 } },
    },
    {
      name: "prod-us",
      labels: { env: "production", region: "us-east-1" },
      objects: clusterObjects(
        prodUs,
        pluginConfigMap("argo-rollouts", {
          trafficRouterPlugins: [
            trafficPlugin("gatewayAPI"),
            trafficPlugin("contour"),
            trafficPlugin("openshift"),
            trafficPlugin("glooplatform", { noSha: true }),
            trafficPlugin("consul"),
          ],
          metricProviderPlugins: METRIC_PLUGINS,
        }),
      ),
      pluginProfiles: { "solo-io/glooplatform": { stuckRouter: "old" }, "argoproj-labs/gatewayAPI": { latencyMs: 25 } },
    },
    {
      name: "staging",
      labels: { env: "staging", region: "eu-west-1" },
      objects: clusterObjects(
        staging,
        pluginConfigMap("argo-rollouts", {
          trafficRouterPlugins: [
            trafficPlugin("gatewayAPI"),
            trafficPlugin("contour"),
            trafficPlugin("openshift", { fileLocation: "file:///plugins/rollouts-plugin-trafficrouter-openshift" }),
            trafficPlugin("glooplatform"),
          ],
          stepPlugins: STEP_PLUGINS,
        }),
      ),
      pluginProfiles: { "argoproj-labs/openshift": { latencyMs: 180 } },
    },
  ];
  const plans: ScheduledUpdate[] = [
    ...prodEu.map((e) => ({
      cluster: "prod-eu",
      namespace: e.bp.namespace,
      name: e.bp.name,
      everyMinutes: e.everyMinutes,
      firstAfterSeconds: e.firstAfterSeconds,
    })),
    ...prodUs.map((e) => ({
      cluster: "prod-us",
      namespace: e.bp.namespace,
      name: e.bp.name,
      everyMinutes: e.everyMinutes,
      firstAfterSeconds: e.firstAfterSeconds,
    })),
    ...staging.map((e) => ({
      cluster: "staging",
      namespace: e.bp.namespace,
      name: e.bp.name,
      everyMinutes: e.everyMinutes,
      firstAfterSeconds: e.firstAfterSeconds,
    })),
  ];
  return { name: "demo", clusters, driver: scheduledDriver(plans) };
}
