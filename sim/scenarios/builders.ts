import { createHash } from "node:crypto";
import { SIM_ANALYSIS_OUTCOME } from "../controller/context";
import type { CanaryStep, RolloutSpec, TrafficRouting } from "../controller/types";
import type { KubeObject } from "../store/object-store";

const IMAGE_REGISTRY = "ghcr.io/acme";

export type Router =
  | { plugin: string; config: Record<string, unknown> }
  | { istio: { virtualService: string } }
  | { nginx: { stableIngress: string } }
  | { none: true };

export interface RolloutBlueprint {
  namespace: string;
  name: string;
  version: string;
  replicas: number;
  router?: Router;
  steps?: CanaryStep[];
  backgroundAnalysis?: { templateName: string; startingStep?: number };
  managedRoutes?: string[];
  maxTrafficWeight?: number;
  blueGreen?: { autoPromotionEnabled?: boolean; autoPromotionSeconds?: number; previewReplicaCount?: number };
  /** Simulator-only: how this rollout's AnalysisRuns end. */
  analysisOutcome?: "Successful" | "Failed" | "Inconclusive";
  annotations?: Record<string, string>;
}

export function image(name: string, version: string): string {
  return `${IMAGE_REGISTRY}/${name}:${version}`;
}

function trafficRouting(bp: RolloutBlueprint): TrafficRouting | undefined {
  const router = bp.router;
  if (!router || "none" in router) return undefined;
  const tr: TrafficRouting = {};
  if ("plugin" in router) tr.plugins = { [router.plugin]: router.config };
  if ("istio" in router) tr.istio = { virtualService: { name: router.istio.virtualService, routes: ["primary"] } };
  if ("nginx" in router) tr.nginx = { stableIngress: router.nginx.stableIngress };
  if (bp.managedRoutes) tr.managedRoutes = bp.managedRoutes.map((name) => ({ name }));
  if (bp.maxTrafficWeight) tr.maxTrafficWeight = bp.maxTrafficWeight;
  return tr;
}

export function rollout(bp: RolloutBlueprint): KubeObject {
  const labels = { app: bp.name };
  const strategy: RolloutSpec["strategy"] = bp.blueGreen
    ? { blueGreen: { activeService: `${bp.name}-active`, previewService: `${bp.name}-preview`, ...bp.blueGreen } }
    : {
        canary: {
          canaryService: `${bp.name}-canary`,
          stableService: `${bp.name}-stable`,
          ...(trafficRouting(bp) ? { trafficRouting: trafficRouting(bp) } : {}),
          ...(bp.backgroundAnalysis
            ? {
                analysis: {
                  templates: [{ templateName: bp.backgroundAnalysis.templateName }],
                  startingStep: bp.backgroundAnalysis.startingStep,
                },
              }
            : {}),
          steps: bp.steps ?? [],
        },
      };
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: {
      name: bp.name,
      namespace: bp.namespace,
      labels: { ...labels, "app.kubernetes.io/part-of": bp.namespace },
      annotations: { ...(bp.analysisOutcome ? { [SIM_ANALYSIS_OUTCOME]: bp.analysisOutcome } : {}), ...(bp.annotations ?? {}) },
    },
    spec: {
      replicas: bp.replicas,
      revisionHistoryLimit: 3,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: bp.name,
              image: image(bp.name, bp.version),
              ports: [{ name: "http", containerPort: 8080 }],
              resources: { requests: { cpu: "100m", memory: "128Mi" } },
            },
          ],
        },
      },
      strategy,
    } satisfies RolloutSpec,
  };
}

function service(namespace: string, name: string, app: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace, labels: { app } },
    spec: { selector: { app }, ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }], type: "ClusterIP" },
  };
}

/** The Services a blueprint's strategy references. */
export function servicesFor(bp: RolloutBlueprint): KubeObject[] {
  const names = bp.blueGreen ? [`${bp.name}-active`, `${bp.name}-preview`] : [`${bp.name}-stable`, `${bp.name}-canary`];
  return names.map((n) => service(bp.namespace, n, bp.name));
}

export function namespaceObject(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: "v1", kind: "Namespace", metadata: { name, labels: { "kubernetes.io/metadata.name": name, ...labels } } };
}

/** AnalysisTemplates shaped like the Argo Rollouts docs' Istio examples. */
export function analysisTemplates(namespace: string): KubeObject[] {
  const query = (rate: string) =>
    `sum(irate(istio_requests_total{reporter="source",destination_service_name=~"{{args.service-name}}",response_code!~"5.*"}[${rate}])) / sum(irate(istio_requests_total{reporter="source",destination_service_name=~"{{args.service-name}}"}[${rate}]))`;
  const template = (name: string, count: number | undefined, interval: string) => ({
    apiVersion: "argoproj.io/v1alpha1",
    kind: "AnalysisTemplate",
    metadata: { name, namespace },
    spec: {
      args: [{ name: "service-name", value: "*" }],
      metrics: [
        {
          name,
          interval,
          ...(count !== undefined ? { count } : {}),
          successCondition: "result[0] >= 0.95",
          failureLimit: 0,
          provider: { prometheus: { address: "http://prometheus.monitoring:9090", query: query("1m") } },
        },
      ],
    },
  });
  return [template("success-rate", 3, "20s"), template("error-rate", undefined, "30s")];
}

export function pluginSha256(location: string): string {
  return createHash("sha256").update(`rollscope-sim:${location}`).digest("hex");
}
