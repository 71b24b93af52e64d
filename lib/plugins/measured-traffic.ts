import type { TrafficRouter } from "@/lib/rollouts/routers";
import type { MeasuredTrafficTemplate } from "./settings-schema";

export type TemplateOrigin = "default" | "fleet" | "cluster";

export interface ResolvedTemplate extends MeasuredTrafficTemplate {
  /** The key it was found under: a router (`Istio`), a plugin name or `generic`. */
  key: string;
  origin: TemplateOrigin;
}

const ISTIO: MeasuredTrafficTemplate = {
  canary:
    'sum(rate(istio_requests_total{reporter="source", destination_service_namespace="${namespace}", destination_service_name="${canaryService}"}[${window}]))',
  total:
    'sum(rate(istio_requests_total{reporter="source", destination_service_namespace="${namespace}", destination_service_name=~"${canaryService}|${stableService}"}[${window}]))',
};

const INGRESS_NGINX: MeasuredTrafficTemplate = {
  canary: 'sum(rate(nginx_ingress_controller_requests{namespace="${namespace}", ingress="${stableIngress}", canary!=""}[${window}]))',
  total: 'sum(rate(nginx_ingress_controller_requests{namespace="${namespace}", ingress="${stableIngress}"}[${window}]))',
};

/**
 * Built-in measured-traffic templates (reference landscape §4), each reading the series its router's data plane
 * exports:
 * - Istio (and Gloo Platform, which runs Istio; and Gateway API where Istio implements the Gateway): source-reported
 *   `istio_requests_total` per destination service.
 * - NGINX (and upstream's sample plugin, which edits an ingress-nginx canary Ingress): ingress-nginx labels requests
 *   served by the canary backend with `canary`.
 * - Contour: Envoy's `envoy_cluster_upstream_rq_total`, whose cluster is named `<namespace>_<service>_<port>`.
 * - OpenShift Routes: the HAProxy router's `haproxy_server_http_responses_total` per namespace and service.
 * - Consul: Envoy's request counter tagged with the destination service and subset (`consul_destination_*`); it
 *   assumes the Consul service is named after the Rollout with subsets `canary` and `stable` (the plugin's example).
 * - Generic: any per-pod request counter joined with kube-state-metrics pod labels on the pod-template hash (needs
 *   `--metric-labels-allowlist=pods=[rollouts-pod-template-hash]`).
 * Another data plane needs a template of its own (`plugins.measuredTraffic.templates`, docs/plugins.md).
 */
const DEFAULT_MEASURED_TRAFFIC_TEMPLATES: Readonly<Record<string, MeasuredTrafficTemplate>> = {
  Istio: ISTIO,
  Nginx: INGRESS_NGINX,
  "argoproj-labs/gatewayAPI": ISTIO,
  "solo-io/glooplatform": ISTIO,
  "argoproj/sample-nginx": INGRESS_NGINX,
  "argoproj-labs/contour": {
    canary: 'sum(rate(envoy_cluster_upstream_rq_total{envoy_cluster_name=~"${namespace}_${canaryService}_[0-9]+"}[${window}]))',
    total:
      'sum(rate(envoy_cluster_upstream_rq_total{envoy_cluster_name=~"${namespace}_(${canaryService}|${stableService})_[0-9]+"}[${window}]))',
  },
  "argoproj-labs/openshift": {
    canary: 'sum(rate(haproxy_server_http_responses_total{namespace="${namespace}", service="${canaryService}"}[${window}]))',
    total:
      'sum(rate(haproxy_server_http_responses_total{namespace="${namespace}", service=~"${canaryService}|${stableService}"}[${window}]))',
  },
  "hashicorp/consul": {
    canary:
      'sum(rate(envoy_cluster_upstream_rq_total{consul_destination_namespace="${namespace}", consul_destination_service="${rollout}", consul_destination_service_subset="canary"}[${window}]))',
    total:
      'sum(rate(envoy_cluster_upstream_rq_total{consul_destination_namespace="${namespace}", consul_destination_service="${rollout}", consul_destination_service_subset=~"canary|stable"}[${window}]))',
  },
  generic: {
    canary:
      'sum(sum by (namespace, pod) (rate(http_requests_total{namespace="${namespace}"}[${window}])) * on (namespace, pod) group_left () max by (namespace, pod) (kube_pod_labels{namespace="${namespace}", label_rollouts_pod_template_hash="${canaryHash}"}))',
    total:
      'sum(sum by (namespace, pod) (rate(http_requests_total{namespace="${namespace}"}[${window}])) * on (namespace, pod) group_left () max by (namespace, pod) (kube_pod_labels{namespace="${namespace}", label_rollouts_pod_template_hash=~"${canaryHash}|${stableHash}"}))',
  },
};

/** Templates in force for a cluster: built-in defaults, then fleet-wide, then the cluster's own, by key. */
export function mergeMeasuredTrafficTemplates(
  fleet: Readonly<Record<string, MeasuredTrafficTemplate>> | undefined,
  cluster: Readonly<Record<string, MeasuredTrafficTemplate>> | undefined,
): Record<string, ResolvedTemplate> {
  const merged: Record<string, ResolvedTemplate> = {};
  for (const [key, template] of Object.entries(DEFAULT_MEASURED_TRAFFIC_TEMPLATES)) merged[key] = { ...template, key, origin: "default" };
  for (const [key, template] of Object.entries(fleet ?? {})) merged[key] = { ...template, key, origin: "fleet" };
  for (const [key, template] of Object.entries(cluster ?? {})) merged[key] = { ...template, key, origin: "cluster" };
  return merged;
}

/**
 * The template for a Rollout's traffic: the first router (built-ins before plugins, as the controller orders them)
 * with a template of its own, else `generic`. Keyed by the spec's router, never by `rollout_info{traffic_router}`,
 * which is empty for plugins.
 */
export function selectMeasuredTrafficTemplate(
  routers: readonly TrafficRouter[],
  templates: Readonly<Record<string, ResolvedTemplate>>,
): { router: string; template: ResolvedTemplate } | null {
  if (routers.length === 0) return null;
  for (const router of routers) {
    const template = templates[router.name];
    if (template) return { router: router.name, template };
  }
  const generic = templates.generic;
  return generic ? { router: routers[0].name, template: generic } : null;
}

export interface MeasuredPoint {
  atMs: number;
  /** Canary share of requests, 0–100; null = no traffic (no requests, or no series). */
  canaryPercent: number | null;
  requestsPerSecond: number | null;
}

/**
 * Canary share = canary ÷ total at each (already timestamp-aligned) point. No traffic (total absent, zero or NaN)
 * is null, never 0 %; a missing canary series with traffic to stable is 0 %.
 */
export function computeMeasuredShare(
  timestampsMs: readonly number[],
  canary: ReadonlyArray<number | null>,
  total: ReadonlyArray<number | null>,
): MeasuredPoint[] {
  return timestampsMs.map((atMs, i) => {
    const all = total[i] ?? null;
    if (all === null || !(all > 0)) return { atMs, canaryPercent: null, requestsPerSecond: all === null ? null : 0 };
    const share = ((canary[i] ?? 0) / all) * 100;
    return { atMs, canaryPercent: Math.min(100, Math.max(0, share)), requestsPerSecond: all };
  });
}

export interface AppliedPoint {
  atMs: number;
  /** The canary weight the controller applied, as a percentage of maxTrafficWeight. */
  canaryPercent: number | null;
}

export interface StuckRouterRun {
  sinceMs: number;
  untilMs: number;
  appliedPercent: number;
  measuredPercent: number;
}

/** The applied weight in force at a time: the latest recorded change at or before it. */
function appliedAt(applied: readonly AppliedPoint[], atMs: number): number | null {
  let value: number | null = null;
  for (const point of applied) {
    if (point.atMs > atMs) break;
    value = point.canaryPercent;
  }
  return value;
}

/**
 * A router that does not follow its weight: measured share and applied weight differ by more than
 * `tolerancePercent` points at every point of an unbroken run that lasts `forSeconds` and is still going at the
 * last measured point. A point is only comparable when the applied weight did not change during the
 * `settleSeconds` before it (the rate window plus scrape lag): a rate over a window that spans a weight change
 * mixes both weights. Points without traffic, or not comparable, break the run.
 */
export function findStuckRouter(input: {
  applied: readonly AppliedPoint[];
  measured: readonly MeasuredPoint[];
  tolerancePercent: number;
  forSeconds: number;
  settleSeconds?: number;
}): StuckRouterRun | null {
  let run: StuckRouterRun | null = null;
  const settleMs = (input.settleSeconds ?? 0) * 1000;
  for (const point of input.measured) {
    const applied = appliedAt(input.applied, point.atMs);
    const settled = !input.applied.some(
      (p, i) => i > 0 && p.atMs > point.atMs - settleMs && p.atMs <= point.atMs && p.canaryPercent !== input.applied[i - 1].canaryPercent,
    );
    if (!settled || point.canaryPercent === null || applied === null || Math.abs(point.canaryPercent - applied) <= input.tolerancePercent) {
      run = null;
      continue;
    }
    const sinceMs: number = run === null ? point.atMs : run.sinceMs;
    run = { sinceMs, untilMs: point.atMs, appliedPercent: applied, measuredPercent: point.canaryPercent };
  }
  if (!run || run.untilMs - run.sinceMs < input.forSeconds * 1000) return null;
  const last = input.measured[input.measured.length - 1];
  return last && last.atMs === run.untilMs ? run : null;
}
