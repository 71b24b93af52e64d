import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";

export interface KubeconfigCluster {
  name: string;
  server: string;
  token: string;
  namespace?: string;
}

/**
 * A kubeconfig with one cluster, user and context per entry (context name = cluster name).
 *
 * An `http://` server is written as `https://` on the same port: the simulator speaks both there, and client-go
 * (kubectl) reads a kubeconfig's token only when the transport is TLS, so an http:// entry would reach the server
 * as an anonymous request and get 401. The certificate is self-signed, hence `insecure-skip-tls-verify: true`
 * (which @kubernetes/client-node 1.x would demand for http:// anyway).
 */
export function buildKubeconfig(clusters: KubeconfigCluster[], currentContext?: string): string {
  if (clusters.length === 0) throw new Error("a kubeconfig needs at least one cluster");
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    preferences: {},
    clusters: clusters.map((c) => ({
      name: c.name,
      cluster: { server: c.server.replace(/^http:\/\//, "https://"), "insecure-skip-tls-verify": true },
    })),
    users: clusters.map((c) => ({ name: c.name, user: { token: c.token } })),
    contexts: clusters.map((c) => ({
      name: c.name,
      context: { cluster: c.name, user: c.name, ...(c.namespace ? { namespace: c.namespace } : {}) },
    })),
    "current-context": currentContext ?? clusters[0].name,
  });
}

/** Writes the kubeconfig (mode 0600, since it holds tokens), creating the directory if needed. */
export function writeKubeconfig(file: string, clusters: KubeconfigCluster[], currentContext?: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, buildKubeconfig(clusters, currentContext), { mode: 0o600 });
}
