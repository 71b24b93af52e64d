import type { KnownDifference } from "./compare";

/**
 * Differences between the simulator and the real controller that are understood and accepted, each with why.
 * docs/fidelity.md lists the same. The conformance test fails on any difference not matched here, and on an entry
 * here (not marked `sometimes`) that no longer matches anything, so the list cannot go stale.
 */
export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    scenario: "*",
    match:
      /^metrics only on sim: (istio_requests_total|nginx_ingress_controller_requests|envoy_cluster_upstream_rq_total|haproxy_server_http_responses_total)\{/,
    why:
      "The simulator serves each routed canary's data-plane traffic (the family its router's real data plane exports: " +
      "istio_requests_total, ingress-nginx's nginx_ingress_controller_requests for the sample router, Envoy's or " +
      "HAProxy's counters) on the controller's /metrics, so the demo's analyses and measured share have data; the real " +
      "controller serves no such series (on the real cluster Traefik, scraped on its own, carries the requests).",
  },
  {
    scenario: "*",
    match: /^metrics only on real: rollout_reconcile_error\{name,namespace\}$/,
    sometimes: true,
    why:
      "Optimistic-concurrency conflicts: the real controller's ReplicaSet updates sometimes race the ReplicaSet " +
      "controller's status writes ('Operation cannot be fulfilled on replicasets.apps … the object has been modified') " +
      "and are retried; the simulator's in-process store applies its writes in order and never conflicts.",
  },
  {
    scenario: "background-analysis-failure",
    step: /^2 /,
    match: /^events only on real: Normal ScalingReplicaSet: Scaled (down|up) ReplicaSet web-<hash> \(revision 1\) from (2 to 1|1 to 2)$/,
    sometimes: true,
    why:
      "A race between the canary pod becoming available (1 s on both back-ends) and the failing background analysis " +
      "aborting the update. The simulator measures a new AnalysisRun in-process at once, so it always aborts first; the " +
      "real analysis controller asks the web provider over HTTP and under load can take longer than the pod. Once the " +
      "canary pod is available both controllers scale the stable down within maxUnavailable (2 → 1) and, after the " +
      "abort, back up (1 → 2). Phase, message, conditions and the final replica counts are the same.",
  },
  {
    scenario: "plugin-failure",
    step: /^1 /,
    match: /^(replicas|message) sim=.* real=.*$/,
    sometimes: true,
    why:
      "While every reconcile fails at SetWeight, the status keeps the counters (and the message derived from them) of " +
      "the last pass that got through before the first failure; which ReplicaSet counts that pass saw depends on when " +
      "the ReplicaSet controller (real) or the workload simulator reported them. The step's phase, step index, " +
      "conditions and events are still compared.",
  },
  {
    scenario: "plugin-failure",
    match: /^events only on sim: Normal TrafficWeightUpdated: Traffic weight updated to 0$/,
    sometimes: true,
    why:
      "Both controllers record the recovery's TrafficWeightUpdated (rollout_events_total has it on both), but the failed " +
      "SetWeight retries before it (1 ms doubling back-off) bring the Rollout to client-go's spam filter (25 events per " +
      "object); how many retries happened before the plugin saw the Ingress decides whether the Events API still keeps it.",
  },
];
