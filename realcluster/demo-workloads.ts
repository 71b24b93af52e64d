import { DEMO_NAMESPACE, GATEWAY_API_PLUGIN, SAMPLE_ROUTER_PLUGIN, type K8sObject } from "./manifests";

/**
 * The demo workload set on the real cluster: a canary routed by a traffic-router plugin, a basic canary, a
 * blue-green, a canary with web analysis and one Rollout that references a plugin nobody registered.
 * Pods run on kwok's fake node, so any image name will do.
 */

export const DEMO_ROLLOUTS = {
  routed: "routed-canary",
  basic: "basic-canary",
  blueGreen: "blue-green",
  analysis: "analysis-canary",
  unregistered: "gateway-canary",
} as const;

const IMAGE = "registry.local/rollscope-demo/web";
export const imageFor = (revision: number) => `${IMAGE}:v${revision}`;

const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: DEMO_NAMESPACE, ...extra });

function service(name: string, app: string): K8sObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: meta(name),
    spec: { selector: { app }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  };
}

function rollout(name: string, replicas: number, strategy: Record<string, unknown>): K8sObject {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: meta(name, { labels: { "app.kubernetes.io/part-of": "rollscope-demo" } }),
    spec: {
      replicas,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "web", image: imageFor(1), ports: [{ name: "http", containerPort: 8080 }] }] },
      },
      strategy,
    },
  };
}

/** Canary routed by upstream's sample plugin, which writes the weight into a canary copy of the Ingress. */
function routedCanary(): K8sObject[] {
  const name = DEMO_ROLLOUTS.routed;
  return [
    service(`${name}-stable`, name),
    service(`${name}-canary`, name),
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: meta(name, { annotations: { "kubernetes.io/ingress.class": "nginx" } }),
      spec: {
        rules: [
          {
            host: `${name}.demo.local`,
            http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: `${name}-stable`, port: { number: 80 } } } }] },
          },
        ],
      },
    },
    rollout(name, 4, {
      canary: {
        stableService: `${name}-stable`,
        canaryService: `${name}-canary`,
        trafficRouting: { plugins: { [SAMPLE_ROUTER_PLUGIN]: { stableIngress: name } } },
        steps: [
          { setWeight: 20 },
          { pause: {} },
          { setWeight: 50 },
          { pause: { duration: "30s" } },
          { setWeight: 80 },
          { pause: { duration: "20s" } },
        ],
      },
    }),
  ];
}

function basicCanary(): K8sObject[] {
  return [
    rollout(DEMO_ROLLOUTS.basic, 4, {
      canary: {
        steps: [
          { setWeight: 25 },
          { pause: { duration: "20s" } },
          { setWeight: 50 },
          { pause: { duration: "20s" } },
          { setWeight: 75 },
          { pause: { duration: "20s" } },
        ],
      },
    }),
  ];
}

function blueGreen(): K8sObject[] {
  const name = DEMO_ROLLOUTS.blueGreen;
  return [
    service(`${name}-active`, name),
    service(`${name}-preview`, name),
    rollout(name, 2, { blueGreen: { activeService: `${name}-active`, previewService: `${name}-preview`, autoPromotionEnabled: false } }),
  ];
}

/** The web metric provider asks the local analysis endpoint, which answers {"ok": true|false}. */
function analysisCanary(analysisUrl: string): K8sObject[] {
  const name = DEMO_ROLLOUTS.analysis;
  return [
    {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "AnalysisTemplate",
      metadata: meta("web-check"),
      spec: {
        metrics: [
          {
            name: "web-check",
            count: 3,
            interval: "5s",
            successCondition: "result == true",
            failureLimit: 0,
            provider: { web: { url: analysisUrl, jsonPath: "{$.ok}", timeoutSeconds: 5 } },
          },
        ],
      },
    },
    rollout(name, 3, {
      canary: {
        steps: [
          { setWeight: 30 },
          { pause: { duration: "10s" } },
          { analysis: { templates: [{ templateName: "web-check" }] } },
          { setWeight: 70 },
          { pause: { duration: "15s" } },
        ],
      },
    }),
  ];
}

/** References the Gateway API plugin, which argo-rollouts-config does not register: Rollscope flags it. */
function unregisteredPlugin(): K8sObject[] {
  const name = DEMO_ROLLOUTS.unregistered;
  return [
    service(`${name}-stable`, name),
    service(`${name}-canary`, name),
    {
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "HTTPRoute",
      metadata: meta(name),
      spec: {
        parentRefs: [{ name: "demo-gateway" }],
        rules: [
          {
            backendRefs: [
              { kind: "Service", name: `${name}-stable`, port: 80, weight: 100 },
              { kind: "Service", name: `${name}-canary`, port: 80, weight: 0 },
            ],
          },
        ],
      },
    },
    rollout(name, 2, {
      canary: {
        stableService: `${name}-stable`,
        canaryService: `${name}-canary`,
        trafficRouting: { plugins: { [GATEWAY_API_PLUGIN]: { httpRoute: name, namespace: DEMO_NAMESPACE } } },
        steps: [{ setWeight: 30 }, { pause: {} }],
      },
    }),
  ];
}

export function demoWorkloads(analysisUrl: string): K8sObject[] {
  return [...routedCanary(), ...basicCanary(), ...blueGreen(), ...analysisCanary(analysisUrl), ...unregisteredPlugin()];
}

/** The canary Ingress the sample plugin creates and keeps at the canary weight. */
export const routedCanaryIngress = `${DEMO_ROLLOUTS.routed}-${DEMO_ROLLOUTS.routed}-canary`;
export const CANARY_WEIGHT_ANNOTATION = "nginx.ingress.kubernetes.io/canary-weight";
