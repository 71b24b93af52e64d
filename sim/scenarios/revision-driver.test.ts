import { afterEach, describe, expect, it, vi } from "vitest";
import { Prng } from "../controller/prng";
import { T } from "../controller/resource-types";
import { SimClock } from "../controller/sim-clock";
import type { Rollout } from "../controller/types";
import { findResourceType } from "../resources";
import { ObjectStore, type KubeObject } from "../store/object-store";
import { namespaceObject } from "./builders";
import { scheduledDriver } from "./revision-driver";

function rollout(name: string): KubeObject {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name, namespace: "shop" },
    spec: {
      template: { spec: { containers: [{ name: "app", image: `ghcr.io/acme/${name}:1.0.0` }] } },
      strategy: { canary: { steps: [{ setWeight: 20 }] } },
    },
  };
}

const imageOf = (store: ObjectStore, name: string) =>
  (store.get(T.rollouts, "shop", name) as Rollout).spec.template.spec?.containers?.[0]?.image;

afterEach(() => vi.useRealTimers());

describe("scheduledDriver", () => {
  it("rolls a new revision onto what failed on its own, never onto what a person aborted or paused", () => {
    vi.useFakeTimers();
    const store = new ObjectStore();
    store.create(findResourceType("", "v1", "namespaces")!, undefined, namespaceObject("shop"));
    for (const name of ["healthy", "failed-analysis", "aborted-by-alice", "paused-by-bob"]) store.create(T.rollouts, "shop", rollout(name));
    const status = (name: string, value: Record<string, unknown>) =>
      store.patch(T.rollouts, "shop", name, "merge", { status: value }, { subresource: "status" });
    status("healthy", { phase: "Healthy" });
    status("failed-analysis", {
      phase: "Degraded",
      abort: true,
      canary: { currentStepAnalysisRunStatus: { name: "ar-1", status: "Failed" } },
    });
    status("aborted-by-alice", { phase: "Degraded", abort: true });
    store.patch(T.rollouts, "shop", "paused-by-bob", "merge", { spec: { paused: true } });
    status("paused-by-bob", { phase: "Healthy" });

    const plans = ["healthy", "failed-analysis", "aborted-by-alice", "paused-by-bob"].map((name) => ({
      cluster: "c",
      namespace: "shop",
      name,
      everyMinutes: 5,
      firstAfterSeconds: 1,
    }));
    const stop = scheduledDriver(plans).start({ clusters: [{ name: "c", store }], clock: new SimClock(1), prng: new Prng(1) });
    vi.advanceTimersByTime(60 * 60_000);
    stop();

    expect(imageOf(store, "healthy")).not.toBe("ghcr.io/acme/healthy:1.0.0");
    expect(imageOf(store, "failed-analysis")).not.toBe("ghcr.io/acme/failed-analysis:1.0.0");
    expect(imageOf(store, "aborted-by-alice")).toBe("ghcr.io/acme/aborted-by-alice:1.0.0");
    expect(imageOf(store, "paused-by-bob")).toBe("ghcr.io/acme/paused-by-bob:1.0.0");
  });
});
