import { PROXY_TARGET_ANNOTATION } from "../apiserver/service-proxy";
import type { ObjectStore } from "../store/object-store";
import { T } from "./resource-types";

/**
 * Service `argo-rollouts-metrics` (port 8090, as `manifests/base/argo-rollouts-metrics-service.yaml`), annotated so
 * the simulated API server's service proxy forwards to the controller's real /metrics listener.
 */
export function ensureMetricsService(store: ObjectStore, namespace: string, target: string): void {
  ensureProxiedService(store, namespace, target, "argo-rollouts-metrics", 8090);
}

/** The port docs/plugins.md gives the first metered plugin's meter (the Service Rollscope's scrape reads). */
export const PLUGIN_METER_SERVICE = "argo-rollouts-plugin-meter:9465";

/**
 * Service `argo-rollouts-plugin-meter` (port 9465, as docs/plugins.md installs the meter next to the controller),
 * forwarding to the simulated meter's /metrics.
 */
export function ensurePluginMeterService(store: ObjectStore, namespace: string, target: string): void {
  ensureProxiedService(store, namespace, target, "argo-rollouts-plugin-meter", 9465);
}

function ensureProxiedService(store: ObjectStore, namespace: string, target: string, name: string, port: number): void {
  store.ensureNamespace(namespace);
  const annotations = { [PROXY_TARGET_ANNOTATION]: target };
  if (store.tryGet(T.services, namespace, name)) {
    store.update(T.services, namespace, name, (draft) => {
      draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), ...annotations };
    });
    return;
  }
  store.create(T.services, namespace, {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name,
      namespace,
      labels: {
        "app.kubernetes.io/name": name,
        "app.kubernetes.io/component": "server",
        "app.kubernetes.io/part-of": "argo-rollouts",
      },
      annotations,
    },
    spec: {
      selector: { "app.kubernetes.io/name": "argo-rollouts" },
      ports: [{ name: "metrics", port, protocol: "TCP", targetPort: port }],
    },
  });
}
