import type { KubernetesObject } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { readProgressDeadlineSeconds } from "@/lib/rollouts/attention-signals";
import { readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { buildFleetRollout } from "./cluster-watcher";
import { keepEvent } from "./kept-event";
import { RolloutSignals } from "./rollout-signals";

const START = Date.parse("2026-08-18T09:45:00Z");

/** Freshly applied and never reconciled: Progressing, 0 replicas, no condition, the gatewayAPI router plugin. */
const raw = readRolloutFixture("no-status");
const configMap = (routers: string) => ({
  metadata: { name: "argo-rollouts-config", namespace: "argo-rollouts", resourceVersion: routers },
  data: { trafficRouterPlugins: routers ? `- name: ${routers}\n  location: https://example.test/plugin` : "[]" },
});
const warning = (reason: string, at: number): KubernetesObject =>
  ({
    metadata: { name: `checkout.${reason}`, namespace: "shop" },
    involvedObject: { kind: "Rollout", name: "checkout", namespace: "shop" },
    type: "Warning",
    reason,
    message: "plugin failed",
    count: 4,
    lastTimestamp: new Date(at).toISOString(),
  }) as KubernetesObject;

function setup(registered: string | null) {
  const configMaps = registered === null ? null : [configMap(registered) as KubernetesObject];
  const signals = new RolloutSignals("staging", { noProgressMinutes: 5 }, () => configMaps);
  const view = buildFleetRollout("staging", raw, new Date(START));
  return { signals, view };
}

const codes = (v: { attention: Array<{ code: string }> }) => v.attention.map((a) => a.code);

describe("RolloutSignals", () => {
  it("puts a Rollout whose router plugin its cluster does not register in the queue, with no condition to go by", () => {
    const { signals, view } = setup("argoproj-labs/openshift");
    expect(view.conditions).toEqual([]);
    expect(codes(signals.apply(view, readProgressDeadlineSeconds(raw), START, true))).toContain("PluginNotRegistered");
    const ok = setup("argoproj-labs/gatewayAPI");
    expect(codes(ok.signals.apply(ok.view, readProgressDeadlineSeconds(raw), START, true))).not.toContain("PluginNotRegistered");
  });

  it("adds a failing reconcile from its Warning events, and drops it when the event goes", () => {
    const { signals, view } = setup("argoproj-labs/gatewayAPI");
    const first = signals.apply(view, readProgressDeadlineSeconds(raw), START, true);
    const event = keepEvent(warning("TrafficRoutingError", START))!;
    expect(signals.eventChanged(event, false)).toBe("staging/shop/checkout");
    const failing = signals.apply(first, readProgressDeadlineSeconds(raw), START + 1_000, false);
    expect(codes(failing)).toEqual(["ReconcileFailing"]);
    signals.eventChanged(event, true);
    expect(codes(signals.apply(failing, readProgressDeadlineSeconds(raw), START + 2_000, false))).toEqual([]);
  });

  it("flags no progress once the state has stood still for the configured time, and returns the same view while nothing changes", () => {
    const { signals, view } = setup("argoproj-labs/gatewayAPI");
    const first = signals.apply(view, readProgressDeadlineSeconds(raw), START, true);
    expect(signals.apply(first, readProgressDeadlineSeconds(raw), START + 60_000, false)).toBe(first);
    const stalled = signals.apply(first, readProgressDeadlineSeconds(raw), START + 6 * 60_000, false);
    expect(codes(stalled)).toEqual(["NoProgress"]);
    expect(stalled.attention[0].href).toBe("/rollouts/staging/shop/checkout#steps-title");
  });

  it("reads argo-rollouts-config again when it changes, and only then", () => {
    const configMaps = [configMap("argoproj-labs/openshift") as KubernetesObject];
    const signals = new RolloutSignals("staging", { noProgressMinutes: 5 }, () => configMaps);
    const view = buildFleetRollout("staging", raw, new Date(START));
    expect(codes(signals.apply(view, 600, START, true))).toContain("PluginNotRegistered");
    configMaps[0] = configMap("argoproj-labs/gatewayAPI") as KubernetesObject;
    expect(codes(signals.apply(view, 600, START, true))).not.toContain("PluginNotRegistered");
    // The same version is the same content: what was read of it stands.
    configMaps[0] = {
      ...configMap("argoproj-labs/openshift"),
      metadata: { ...configMap("").metadata, resourceVersion: "argoproj-labs/gatewayAPI" },
    } as KubernetesObject;
    expect(codes(signals.apply(view, 600, START, true))).not.toContain("PluginNotRegistered");
    configMaps.length = 0;
    expect(codes(signals.apply(view, 600, START, true))).toContain("PluginNotRegistered");
  });

  it("calls nothing unregistered before argo-rollouts-config was listed", () => {
    const { signals, view } = setup(null);
    expect(codes(signals.apply(view, readProgressDeadlineSeconds(raw), START, true))).toEqual([]);
  });
});
