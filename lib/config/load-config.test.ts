import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseConfig } from "./load-config";

function errorMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("parseConfig", () => {
  it("accepts the documented example with defaults filled in", () => {
    const config = parseConfig(readFileSync(path.resolve(import.meta.dirname, "../../rollscope.example.yaml"), "utf8"), "example");
    expect(config.clusters.map((c) => c.name)).toEqual(["prod-eu", "staging"]);
    expect(config.clusters[1].controllerNamespace).toBe("argo-rollouts");
    expect(config.clusters[0].prometheus?.timeoutMs).toBe(5000);
    expect(config.recorder.retentionDays).toBe(30);
    expect(config.recorder.compactAfterDays).toBe(7);
  });

  it("names the field and the problem", () => {
    const message = errorMessage(() =>
      parseConfig("clusters:\n  - name: Prod EU\n    kubeconfig: {context: x}\n    prometheus: {url: ftp://x}\n", "bad.yaml"),
    );
    expect(message).toContain("Invalid Rollscope configuration in bad.yaml");
    expect(message).toContain("clusters.0.name: must be lowercase letters, digits and '-'");
    expect(message).toContain("clusters.0.prometheus.url");
  });

  it("rejects unknown keys, duplicate names, and a cluster with both or neither credential source", () => {
    expect(errorMessage(() => parseConfig("clusters: [{name: a, inCluster: true, kubeconfg: {}}]", "f"))).toContain(
      'Unrecognized key: "kubeconfg"',
    );
    expect(errorMessage(() => parseConfig("clusters: [{name: a, inCluster: true}, {name: a, inCluster: true}]", "f"))).toContain(
      'clusters.1.name: duplicate cluster name "a"',
    );
    expect(errorMessage(() => parseConfig("clusters: [{name: a}]", "f"))).toContain("set exactly one of kubeconfig");
    expect(errorMessage(() => parseConfig("clusters: [\n", "f"))).toContain("not valid YAML");
  });

  it("without a config file, makes one cluster per kubeconfig context", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rollscope-cfg-"));
    const kubeconfig = path.join(dir, "kubeconfig");
    writeFileSync(
      kubeconfig,
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters: [{name: a, cluster: {server: 'http://127.0.0.1:1'}}, {name: b, cluster: {server: 'http://127.0.0.1:2'}}]",
        "users: [{name: u, user: {token: t}}]",
        "contexts: [{name: Prod_EU, context: {cluster: a, user: u}}, {name: staging, context: {cluster: b, user: u}}]",
        "current-context: staging",
      ].join("\n"),
    );
    const config = loadConfig({ KUBECONFIG: kubeconfig });
    expect(config.clusters.map((c) => [c.name, c.kubeconfig?.context])).toEqual([
      ["prod-eu", "Prod_EU"],
      ["staging", "staging"],
    ]);
    expect(errorMessage(() => loadConfig({ ROLLSCOPE_CONFIG: path.join(dir, "missing.yaml") }))).toContain("does not exist");
  });

  it("refuses kubeconfig contexts that differ only in case (or in characters a cluster name drops), naming both", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rollscope-cfg-"));
    const kubeconfig = path.join(dir, "kubeconfig");
    writeFileSync(
      kubeconfig,
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters: [{name: a, cluster: {server: 'http://127.0.0.1:1'}}, {name: b, cluster: {server: 'http://127.0.0.1:2'}}]",
        "users: [{name: u, user: {token: t}}]",
        "contexts: [{name: Prod, context: {cluster: a, user: u}}, {name: prod, context: {cluster: b, user: u}}]",
        "current-context: prod",
      ].join("\n"),
    );
    const message = errorMessage(() => loadConfig({ KUBECONFIG: kubeconfig }));
    expect(message).toContain('kubeconfig contexts "Prod" and "prod" would both be cluster "prod"');
    expect(message).toContain("ROLLSCOPE_CONFIG");
  });
});
