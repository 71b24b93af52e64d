import { describe, expect, it } from "vitest";
import { collectPluginUsage, type AnalysisTemplateLike } from "@/lib/plugins/usage";
import { listRolloutFixtureNames, loadRolloutFixture, readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { fingerprintToken, projectRollout } from "./rollout-projection";

/** Templates with a metric plugin, one per fixture namespace, so analysis references count as plugin usage. */
const templates: AnalysisTemplateLike[] = ["success-rate", "error-rate", "smoke-tests", "latency-compare"].flatMap((name) =>
  ["shop", "billing", "ml", "web"].map((namespace) => ({
    kind: "AnalysisTemplate",
    metadata: { name, namespace },
    spec: { metrics: [{ name: "m", provider: { plugin: { "argoproj-labs/sample-prometheus": {} } } }] },
  })),
);

/** A watched object as an API server sends it: managedFields, kubectl's last-applied copy, a large pod template. */
function asServed(name: string): Record<string, unknown> {
  const obj = structuredClone(readRolloutFixture(name)) as { metadata: Record<string, unknown>; spec?: Record<string, unknown> };
  obj.metadata.managedFields = [{ manager: "kubectl", operation: "Update", fieldsV1: { "f:spec": { "f:template": {} } } }];
  obj.metadata.annotations = {
    ...(obj.metadata.annotations as object),
    "kubectl.kubernetes.io/last-applied-configuration": JSON.stringify(obj),
  };
  return obj;
}

describe("projectRollout (what the server keeps of a watched Rollout besides its view)", () => {
  it.each(listRolloutFixtureNames())("keeps no pod template, status, managedFields or annotations of %s", (name) => {
    const kept = JSON.stringify(projectRollout(asServed(name), loadRolloutFixture(name)));
    for (const field of ["managedFields", "last-applied-configuration", "template", "containers", "status", "conditions", "selector"]) {
      expect(kept).not.toContain(`"${field}"`);
    }
  });

  it.each(listRolloutFixtureNames())("gives the plugins page the same usage of %s as the whole object", (name) => {
    const full = loadRolloutFixture(name);
    const projection = projectRollout(asServed(name), full);
    expect(collectPluginUsage(projection.usage ? [projection.usage] : [], templates)).toEqual(collectPluginUsage([full], templates));
  });

  it("keeps what the signals, measured traffic and a focused page's actions read", () => {
    const full = loadRolloutFixture("progress-deadline-exceeded");
    const projection = projectRollout(readRolloutFixture("progress-deadline-exceeded"), full);
    expect(projection.progressDeadlineSeconds).toBe(full.spec?.progressDeadlineSeconds ?? 600);
    expect(projection.actionFingerprint).toBe(fingerprintToken(full));
    const nginx = { ...full, spec: { ...full.spec, strategy: { canary: { trafficRouting: { nginx: { stableIngress: "shop-web" } } } } } };
    expect(projectRollout(nginx, nginx).stableIngress).toBe("shop-web");
  });

  it("keeps only the name's place for an object that does not parse", () => {
    expect(projectRollout({ metadata: { name: "broken" }, spec: "not an object" }, null)).toEqual({
      usage: null,
      progressDeadlineSeconds: 600,
      stableIngress: null,
      actionFingerprint: null,
    });
  });
});
