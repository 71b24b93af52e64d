import { ROUTER_PLUGIN } from "./backends";
import type { KubeObject } from "./kube";

/** Objects the scenarios create, in the scenario's namespace (set on create). Pods run on kwok or the simulator. */

const IMAGE = "registry.local/conformance/web";
export const image = (version: number) => `${IMAGE}:v${version}`;

export function service(name: string, app: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name },
    spec: { selector: { app }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  };
}

/** An Ingress sending everything to `<app>-stable`; the sample plugin keeps a canary copy of it. */
export function ingress(name: string): KubeObject {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, annotations: { "kubernetes.io/ingress.class": "nginx" } },
    spec: {
      rules: [
        {
          host: `${name}.conformance.local`,
          http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: `${name}-stable`, port: { number: 80 } } } }] },
        },
      ],
    },
  };
}

export function rollout(name: string, replicas: number, strategy: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name },
    spec: {
      replicas,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "web", image: image(1), ports: [{ name: "http", containerPort: 8080 }] }] },
      },
      strategy,
      ...spec,
    },
  };
}

/** Canary routed by the sample plugin through the `<name>` Ingress and the `<name>-stable`/`-canary` Services. */
export function routedCanary(name: string, steps: unknown[], plugin = ROUTER_PLUGIN): KubeObject {
  return rollout(name, 2, {
    canary: {
      stableService: `${name}-stable`,
      canaryService: `${name}-canary`,
      trafficRouting: { plugins: { [plugin]: { stableIngress: name } } },
      steps,
    },
  });
}

/** The simulator does not call metric providers: this annotation (ignored by the real controller) says the outcome. */
const SIM_ANALYSIS_OUTCOME = "sim.rollscope.dev/analysis-outcome";

export type AnalysisOutcome = "Successful" | "Failed" | "Inconclusive";

/** The conditions that make the endpoint's {"ok": true} come out as `outcome` (neither condition: Inconclusive). */
const CONDITIONS: Record<AnalysisOutcome, Record<string, string>> = {
  Successful: { successCondition: "result == true" },
  Failed: { successCondition: "result == false" },
  Inconclusive: { successCondition: "result == false", failureCondition: "result == false" },
};

/** A web-provider metric against the back-end's analysis endpoint ({"ok": true}), measured twice 3 s apart. */
export function webAnalysisTemplate(name: string, checkUrl: string, outcome: AnalysisOutcome): KubeObject {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "AnalysisTemplate",
    metadata: { name, annotations: { [SIM_ANALYSIS_OUTCOME]: outcome } },
    spec: {
      metrics: [
        {
          name: "web-check",
          count: 2,
          // Long enough that both controllers see the run Running before it ends.
          interval: "3s",
          ...CONDITIONS[outcome],
          failureLimit: 0,
          provider: { web: { url: checkUrl, jsonPath: "{$.ok}", timeoutSeconds: 5 } },
        },
      ],
    },
  };
}
