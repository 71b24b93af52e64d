import type { Registry } from "prom-client";
import { SIM_ANALYSIS_OUTCOME } from "../controller/context";
import { fnv32a, type Prng } from "../controller/prng";
import type { AppliedRoute } from "../controller/traffic-routers";
import { primaryRouterKey } from "../controller/traffic-routers";
import type { Rollout } from "../controller/types";
import { maxTrafficWeight } from "../controller/steps";

/** Series not incremented for this long disappear, as an exporter forgets idle upstreams. */
const IDLE_SERIES_MS = 120_000;
const BASE_ERROR_RATE = 0.003;
const FAILING_CANARY_ERROR_RATE = 0.06;

/** One series of a request counter: its labels, its count, and when it last served a request. */
interface Sample {
  labels: Record<string, string>;
  value: number;
  lastMs: number;
}

/**
 * A counter family whose series the traffic simulator keeps itself, registered as prom-client reads metrics
 * (`get()`), in the order series were created, as prom-client keeps them: prom-client's own Counter hashed every
 * label set again on every increment, tens of thousands a second at 20,000 Rollouts.
 */
class RequestCounter {
  readonly type = "counter";
  readonly aggregator = "sum";
  readonly series = new Map<string, Sample>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

  get() {
    return { name: this.name, help: this.help, type: this.type, values: [...this.series.values()], aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}

export interface TrafficSource {
  rollouts(): Rollout[];
  applied(rolloutKey: string, routerKey: string): AppliedRoute | undefined;
}

/** Which exporter carries a router's requests: the data plane each router drives exports its own family. */
type DataPlane = "istio" | "nginx" | "envoy" | "consul" | "haproxy";

/** The data plane behind each router the demo uses, as Rollscope's default templates read it (lib/plugins/measured-traffic.ts). */
const DATA_PLANES: Readonly<Record<string, DataPlane>> = {
  Istio: "istio",
  Nginx: "nginx",
  "argoproj/sample-nginx": "nginx",
  "argoproj-labs/gatewayAPI": "istio",
  "solo-io/glooplatform": "istio",
  "argoproj-labs/contour": "envoy",
  "argoproj-labs/openshift": "haproxy",
  "hashicorp/consul": "consul",
};

/**
 * Request counters for traffic-routed canaries, one family per data plane, named and labelled as each real exporter
 * does: `istio_requests_total` (Istio, and the plugins whose data plane is Istio), `nginx_ingress_controller_requests`
 * (ingress-nginx), Envoy's `envoy_cluster_upstream_rq_total` (Contour's cluster names; Consul's destination tags) and
 * the OpenShift HAProxy router's `haproxy_server_http_responses_total`. The canary share follows the weight the
 * router's data plane actually applied (a stuck router's does not follow), with seeded noise; request volume is in
 * real time (not scaled).
 */
export class ServiceTrafficSimulator {
  private readonly istio: RequestCounter;
  private readonly nginx: RequestCounter;
  private readonly envoy: RequestCounter;
  private readonly haproxy: RequestCounter;
  /** Per Rollout: until when its requests have been served. */
  private readonly servedUntil = new Map<string, number>();

  constructor(
    registry: Registry,
    private readonly source: TrafficSource,
    private readonly prng: Prng,
    private readonly now: () => number,
  ) {
    // Labels: reporter, destination_service_name, destination_service_namespace, destination_workload, response_code.
    this.istio = new RequestCounter("istio_requests_total", "Total requests (simulated Istio standard metric).", registry);
    // Labels: namespace, ingress, service, canary, status.
    this.nginx = new RequestCounter(
      "nginx_ingress_controller_requests",
      "The total number of client requests (simulated ingress-nginx metric).",
      registry,
    );
    // Labels: envoy_cluster_name (Contour: <namespace>_<service>_<port>), or Consul's consul_destination_* tags.
    this.envoy = new RequestCounter("envoy_cluster_upstream_rq_total", "Total upstream requests (simulated Envoy cluster stat).", registry);
    // Labels: namespace, route, service, server, code (the OpenShift router's HAProxy exporter).
    this.haproxy = new RequestCounter(
      "haproxy_server_http_responses_total",
      "Total of HTTP responses (simulated OpenShift router HAProxy metric).",
      registry,
    );
  }

  /** Adds the requests every Rollout served since it was last served. */
  advance(): void {
    const now = this.now();
    for (const ro of this.source.rollouts()) this.serve(ro, now);
    for (const counter of [this.istio, this.nginx, this.envoy, this.haproxy]) {
      for (const [key, sample] of counter.series) if (now - sample.lastMs > IDLE_SERIES_MS) counter.series.delete(key);
    }
  }

  /**
   * Serves one Rollout's requests up to now at the weights its data plane applied so far. Called before a router
   * changes what it applied, so a step shorter than the sampling interval still gets its share of the traffic
   * instead of being skipped (at 60× time a 30 s pause lasts half a second).
   */
  serveUntilNow(ro: Rollout): void {
    this.serve(ro, this.now());
  }

  /** Forgets a deleted Rollout (its series go idle and are dropped like any other). */
  forget(rolloutKey: string): void {
    this.servedUntil.delete(rolloutKey);
  }

  private serve(ro: Rollout, now: number): void {
    const key = `${ro.metadata.namespace ?? "default"}/${ro.metadata.name}`;
    const last = this.servedUntil.get(key);
    this.servedUntil.set(key, now);
    if (last === undefined) return;
    const dtSeconds = Math.min((now - last) / 1000, 10);
    if (dtSeconds > 0) this.serveInterval(ro, dtSeconds, now);
  }

  private serveInterval(ro: Rollout, dt: number, now: number): void {
    const canary = ro.spec.strategy.canary;
    const routerKey = primaryRouterKey(ro);
    if (!canary?.trafficRouting || !routerKey) return;
    const ns = ro.metadata.namespace ?? "default";
    const route = this.source.applied(`${ns}/${ro.metadata.name}`, routerKey);
    const stableHash = route?.stableHash || ro.status?.stableRS || "";
    if (!stableHash) return;
    const canaryHash = route?.canaryHash || "";
    const rps = 20 + (fnv32a(`${ns}/${ro.metadata.name}`) % 100);
    const total = Math.max(0, Math.round(rps * dt * (1 + this.prng.gaussian() * 0.05)));
    const max = maxTrafficWeight(ro);
    const baseShare = canaryHash && canaryHash !== stableHash ? (route?.measuredWeight ?? 0) / max : 0;
    const share = baseShare <= 0 ? 0 : baseShare >= 1 ? 1 : Math.min(1, Math.max(0, baseShare + this.prng.gaussian() * 0.01));
    const canaryRequests = Math.round(total * share);
    const stableRequests = total - canaryRequests;
    const failing = ro.metadata.annotations?.[SIM_ANALYSIS_OUTCOME] === "Failed";
    const plane = DATA_PLANES[routerKey] ?? "istio";
    const nginx = canary.trafficRouting.nginx;
    const pluginConfig = (canary.trafficRouting.plugins?.[routerKey] ?? {}) as { stableIngress?: string; routes?: string[] };
    const ingress = nginx
      ? (nginx.stableIngress ?? nginx.stableIngresses?.[0] ?? ro.metadata.name)
      : (pluginConfig.stableIngress ?? ro.metadata.name);
    const openshiftRoute = (pluginConfig.routes?.[0] ?? ro.metadata.name).split("/").pop() ?? ro.metadata.name;
    for (const side of ["stable", "canary"] as const) {
      const requests = side === "canary" ? canaryRequests : stableRequests;
      if (requests <= 0 && side === "canary") continue;
      const errorRate = side === "canary" && failing ? FAILING_CANARY_ERROR_RATE : BASE_ERROR_RATE;
      const errors = Math.min(requests, Math.round(requests * errorRate + Math.max(0, this.prng.gaussian()) * errorRate * 3));
      const service = (side === "canary" ? canary.canaryService : canary.stableService) ?? ro.metadata.name;
      const workload = `${ro.metadata.name}-${side === "canary" ? canaryHash : stableHash}`;
      if (plane === "envoy" || plane === "consul") {
        // Envoy's request total has no status label (that is envoy_cluster_upstream_rq_xx).
        const cluster = plane === "envoy" ? `${ns}_${service}_80` : `${side}.${ro.metadata.name}.${ns}.dc1.internal`;
        this.bump(
          this.envoy,
          `e|${cluster}`,
          (): Record<string, string> =>
            plane === "envoy"
              ? { envoy_cluster_name: cluster }
              : {
                  envoy_cluster_name: cluster,
                  consul_destination_namespace: ns,
                  consul_destination_service: ro.metadata.name,
                  consul_destination_service_subset: side,
                },
          requests,
          now,
        );
        continue;
      }
      for (const [code, n] of [
        ["200", requests - errors],
        ["503", errors],
      ] as const) {
        if (plane === "haproxy") {
          const server = `pod:${workload}:${service}:http:10.128.0.${(fnv32a(workload) % 250) + 2}:8080`;
          this.bump(
            this.haproxy,
            `h|${ns}|${openshiftRoute}|${service}|${code}`,
            () => ({ namespace: ns, route: openshiftRoute, service, server, code: code === "200" ? "2xx" : "5xx" }),
            n,
            now,
          );
        } else if (plane === "nginx") {
          const canaryLabel = side === "canary" ? `${ns}-${service}-80` : "";
          this.bump(
            this.nginx,
            `n|${ns}|${ingress}|${service}|${canaryLabel}|${code}`,
            () => ({ namespace: ns, ingress, service, canary: canaryLabel, status: code }),
            n,
            now,
          );
        } else {
          this.bump(
            this.istio,
            `i|${ns}|${service}|${workload}|${code}`,
            () => ({
              reporter: "source",
              destination_service_name: service,
              destination_service_namespace: ns,
              destination_workload: workload,
              response_code: code,
            }),
            n,
            now,
          );
        }
      }
    }
  }

  private bump(counter: RequestCounter, key: string, labels: () => Record<string, string>, n: number, now: number): void {
    let sample = counter.series.get(key);
    if (!sample) {
      if (n <= 0) return;
      sample = { labels: labels(), value: 0, lastMs: now };
      counter.series.set(key, sample);
    }
    if (n > 0) {
      sample.value += n;
      sample.lastMs = now;
    }
  }
}
