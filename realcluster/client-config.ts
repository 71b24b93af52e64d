import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import type { SimulationUsers } from "../sim/cluster";
import { buildRollscopeConfig } from "../sim/rollscope-config";
import type { Pki } from "./pki";

/** Kubeconfigs, the Rollscope configuration, and kubectl against the cluster. */

/** The control plane's own kubeconfig: the admin client certificate (system:masters). */
export function writeAdminKubeconfig(file: string, cluster: string, server: string, pki: Pki): void {
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: cluster, cluster: { server, "certificate-authority": pki.caCert } }],
    users: [{ name: "admin", user: { "client-certificate": pki.adminCert, "client-key": pki.adminKey } }],
    contexts: [{ name: cluster, context: { cluster, user: "admin" } }],
    "current-context": cluster,
  };
  writeFileSync(file, stringify(config), { mode: 0o600 });
}

/** Rollscope's kubeconfig: the simulator's static tokens, one context each, the cluster's CA inline. */
export function writeTokenKubeconfig(file: string, cluster: string, server: string, pki: Pki, users: SimulationUsers): void {
  const who = [
    [cluster, users.rollscope.token],
    [`${cluster}-admin`, users.admin.token],
    [`${cluster}-alice`, users.alice.token],
    [`${cluster}-bob`, users.bob.token],
  ];
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: cluster, cluster: { server, "certificate-authority-data": readFileSync(pki.caCert).toString("base64") } }],
    users: who.map(([name, token]) => ({ name, user: { token } })),
    contexts: who.map(([name]) => ({ name, context: { cluster, user: name } })),
    "current-context": cluster,
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, stringify(config), { mode: 0o600 });
}

/**
 * The Rollscope configuration: the cluster on its dashboard context, with its Prometheus when there is one and its
 * plugin settings (the measured-traffic template of the data plane's proxy) when given.
 */
export function writeClusterRollscopeConfig(
  file: string,
  cluster: string,
  kubeconfigPath: string,
  prometheusUrl?: string,
  plugins?: Record<string, unknown>,
): void {
  const prometheus = { ...(prometheusUrl ? { prometheus: { url: prometheusUrl } } : {}), ...(plugins ? { plugins } : {}) };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    buildRollscopeConfig(kubeconfigPath, [{ name: cluster, labels: {} }], {}, () => prometheus),
    { mode: 0o600 },
  );
}

/** Runs kubectl with the given kubeconfig; resolves with stdout, rejects with stderr. */
export function runKubectl(binary: string, kubeconfig: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["--kubeconfig", kubeconfig, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`kubectl ${args.join(" ")} failed: ${stderr.trim() || `exit ${code}`}`)),
    );
    child.stdin.end(input ?? "");
  });
}
