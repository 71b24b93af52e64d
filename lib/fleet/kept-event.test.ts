import type { KubernetesObject } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isEventAbout, keepEvent } from "./kept-event";

const event = (over: Record<string, unknown> = {}): KubernetesObject =>
  ({
    metadata: {
      namespace: "shop",
      name: "checkout.18ed55da2a15d2ac",
      uid: "e-1",
      resourceVersion: "77",
      managedFields: [{ manager: "kube" }],
    },
    involvedObject: { kind: "Rollout", name: "checkout", namespace: "shop", uid: "r-1" },
    type: "Warning",
    reason: "TrafficRoutingError",
    message: "plugin SetWeight failed",
    count: 3,
    firstTimestamp: "2026-12-01T10:00:00Z",
    lastTimestamp: "2026-12-01T10:05:00Z",
    eventTime: null,
    source: { component: "rollouts-controller" },
    ...over,
  }) as KubernetesObject;

describe("keepEvent", () => {
  it("keeps one flat record of what the pages, the signals and the recorder read", () => {
    expect(keepEvent(event())).toEqual({
      key: "shop/checkout.18ed55da2a15d2ac",
      uid: "e-1",
      resourceVersion: "77",
      namespace: "shop",
      rollout: "checkout",
      rolloutUid: "r-1",
      type: "Warning",
      reason: "TrafficRoutingError",
      message: "plugin SetWeight failed",
      count: 3,
      firstAt: "2026-12-01T10:00:00Z",
      lastAt: "2026-12-01T10:05:00Z",
    });
  });

  it("reads an events.k8s.io-style Event by its eventTime, and the Event's namespace when involvedObject has none", () => {
    const kept = keepEvent(
      event({
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: "2026-12-01T11:00:00.000000Z",
        involvedObject: { kind: "Rollout", name: "checkout" },
        type: "Normal",
        count: undefined,
      }),
    );
    expect(kept).toMatchObject({
      namespace: "shop",
      type: "Normal",
      count: 1,
      firstAt: "2026-12-01T11:00:00.000000Z",
      lastAt: "2026-12-01T11:00:00.000000Z",
    });
  });

  it("keeps nothing of an Event about another kind or one that does not read as an Event", () => {
    expect(keepEvent(event({ involvedObject: { kind: "Pod", name: "checkout-abc" } }))).toBeNull();
    expect(keepEvent(event({ count: "three" }))).toBeNull();
  });

  it("belongs to the Rollout object it names by namespace, name and uid — not to a same-named one elsewhere or a successor", () => {
    const kept = keepEvent(event())!;
    expect(isEventAbout(kept, { namespace: "shop", name: "checkout", uid: "r-1" })).toBe(true);
    // The same name in another namespace, and the Rollout created again under the same name (a new uid).
    expect(isEventAbout(kept, { namespace: "payments", name: "checkout", uid: "r-1" })).toBe(false);
    expect(isEventAbout(kept, { namespace: "shop", name: "checkout", uid: "r-2" })).toBe(false);
    // An Event that does not name the uid is matched by namespace and name, as before.
    const anonymous = keepEvent(event({ involvedObject: { kind: "Rollout", name: "checkout", namespace: "shop" } }))!;
    expect(anonymous.rolloutUid).toBeNull();
    expect(isEventAbout(anonymous, { namespace: "shop", name: "checkout", uid: "r-2" })).toBe(true);
  });
});
