import { PROXY_TARGET_ANNOTATION } from "../apiserver/service-proxy";
import type { ObjectStore } from "../store/object-store";
import { T } from "./resource-types";

/**
 * Service `argo-rollouts-metrics` (port 8090, as `manifests/base/argo-rollouts-metrics-service.yaml`), annotated so
 * the simulated API server's service proxy forwards to the controller's real /metrics listener.
 */
export function ensureMetricsService(store: ObjectStore, namespace: string, target: string): void {
  store.ensureNamespace(namespace);
  const annotations = { [PROXY_TARGET_ANNOTATION]: target };
  if (store.tryGet(T.services, namespace, "argo-rollouts-metrics")) {
    store.update(T.services, namespace, "argo-rollouts-metrics", (draft) => {
      draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), ...annotations };
    });
    return;
  }
  store.create(T.services, namespace, {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: "argo-rollouts-metrics",
      namespace,
      labels: {
        "app.kubernetes.io/name": "argo-rollouts-metrics",
        "app.kubernetes.io/component": "server",
        "app.kubernetes.io/part-of": "argo-rollouts",
      },
      annotations,
    },
    spec: {
      selector: { "app.kubernetes.io/name": "argo-rollouts" },
      ports: [{ name: "metrics", port: 8090, protocol: "TCP", targetPort: 8090 }],
    },
  });
}
