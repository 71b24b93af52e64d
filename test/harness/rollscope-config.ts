import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";

export interface TestClusterConfig {
  name: string;
  /** Context in the kubeconfig; default the cluster name (the simulator's dashboard identity). */
  context?: string;
  label?: string;
  /** The `prometheus:` section of the cluster (its URL at least). */
  prometheus?: { url: string };
}

export interface TestConfigOptions {
  kubeconfigPath: string;
  clusters: TestClusterConfig[];
  readOnly?: boolean;
  /** The `auth:` section as written in YAML. */
  auth?: Record<string, unknown>;
  authorization?: Record<string, unknown>;
  /** The `server:` section (listen address, allowed hosts, trusted proxies, body limit). */
  server?: Record<string, unknown>;
}

/** Writes a Rollscope config file for a test and returns its path (for ROLLSCOPE_CONFIG). */
export function writeRollscopeConfig(options: TestConfigOptions): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-config-")), "rollscope.yaml");
  const config = {
    clusters: options.clusters.map((c) => ({
      name: c.name,
      kubeconfig: { path: options.kubeconfigPath, context: c.context ?? c.name },
      ...(c.label ? { label: c.label } : {}),
      ...(c.prometheus ? { prometheus: c.prometheus } : {}),
    })),
    ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.authorization ? { authorization: options.authorization } : {}),
    ...(options.server ? { server: options.server } : {}),
  };
  writeFileSync(file, stringify(config), { mode: 0o600 });
  return file;
}
