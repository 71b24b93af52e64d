import "server-only";
import { existsSync, readFileSync } from "node:fs";
import type { KubeConfig } from "@kubernetes/client-node";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { loadDefaultKubeConfig } from "./default-kubeconfig";
import { rollscopeConfigSchema, type RollscopeConfig } from "./schema";

export class ConfigError extends Error {}

const IN_CLUSTER_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

function formatIssues(error: z.ZodError, source: string): string {
  const lines = error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.join(".") : "(root)";
    return `  - ${field}: ${issue.message}`;
  });
  return `Invalid Rollscope configuration in ${source}:\n${lines.join("\n")}`;
}

/** Parses and validates a config document; the error names each bad field. */
export function parseConfig(text: string, source: string): RollscopeConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ConfigError(`Invalid Rollscope configuration in ${source}: not valid YAML: ${(err as Error).message}`);
  }
  const result = rollscopeConfigSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(formatIssues(result.error, source));
  const names = new Set<string>();
  for (const [i, cluster] of result.data.clusters.entries()) {
    if (names.has(cluster.name))
      throw new ConfigError(
        `Invalid Rollscope configuration in ${source}:\n  - clusters.${i}.name: duplicate cluster name "${cluster.name}"`,
      );
    names.add(cluster.name);
  }
  return result.data;
}

function sanitizeName(context: string): string {
  return (
    context
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "cluster"
  );
}

/**
 * Contexts whose cluster names would be one (`Prod` and `prod`, `a.b` and `a-b`) would merge into one cluster: rows
 * hiding each other, actions going to whichever came first. Refused, naming them and the way out.
 */
function refuseCollidingContexts(contexts: readonly string[]): void {
  const byName = new Map<string, string>();
  for (const context of contexts) {
    const name = sanitizeName(context);
    const earlier = byName.get(name);
    if (earlier !== undefined)
      throw new ConfigError(
        `kubeconfig contexts "${earlier}" and "${context}" would both be cluster "${name}" (cluster names are lower case letters, digits and '-'): rename one of the contexts, or list the clusters with names of your own in a config file (ROLLSCOPE_CONFIG)`,
      );
    byName.set(name, context);
  }
}

/**
 * The configuration in force: the YAML file named by ROLLSCOPE_CONFIG; without one, every context of the default
 * kubeconfig ($KUBECONFIG or ~/.kube/config); without that, the in-cluster service account when running in a pod.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): RollscopeConfig {
  const file = env.ROLLSCOPE_CONFIG;
  if (file) {
    if (!existsSync(file)) throw new ConfigError(`ROLLSCOPE_CONFIG points at ${file}, which does not exist`);
    return parseConfig(readFileSync(file, "utf8"), file);
  }
  let kc: KubeConfig;
  try {
    kc = loadDefaultKubeConfig(env);
  } catch (err) {
    throw new ConfigError(`Could not read the kubeconfig: ${(err as Error).message}`);
  }
  const contexts = kc.getContexts();
  if (contexts.length > 0 && !(contexts.length === 1 && contexts[0].name === "inClusterContext")) {
    refuseCollidingContexts(contexts.map((c) => c.name));
    return rollscopeConfigSchema.parse({
      clusters: contexts.map((c) => ({ name: sanitizeName(c.name), kubeconfig: { context: c.name } })),
    });
  }
  if (existsSync(IN_CLUSTER_TOKEN)) {
    return rollscopeConfigSchema.parse({ clusters: [{ name: "in-cluster", inCluster: true }] });
  }
  throw new ConfigError(
    "No clusters configured: set ROLLSCOPE_CONFIG to a config file, or KUBECONFIG to a kubeconfig with at least one context",
  );
}
