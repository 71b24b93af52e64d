import { describe, expect, it } from "vitest";
import { parseRolloutKey } from "@/lib/rollouts/rollout-ref";
import { queryKeys } from "./keys";

describe("parseRolloutKey", () => {
  it("splits cluster/namespace/name", () => {
    expect(parseRolloutKey("prod-eu/shop/checkout")).toEqual({ cluster: "prod-eu", namespace: "shop", name: "checkout" });
  });

  it("keeps slashes inside the cluster name", () => {
    expect(parseRolloutKey("team/prod/shop/checkout")).toEqual({ cluster: "team/prod", namespace: "shop", name: "checkout" });
  });

  it("rejects keys without three parts", () => {
    expect(parseRolloutKey("checkout")).toBeNull();
    expect(parseRolloutKey("shop/checkout")).toBeNull();
    expect(parseRolloutKey("/shop/checkout")).toBeNull();
  });
});

describe("queryKeys", () => {
  it("nests everything about a rollout under its prefix", () => {
    const ref = { cluster: "c", namespace: "ns", name: "n" };
    const prefix = queryKeys.rollout(ref);
    for (const key of [
      queryKeys.rolloutDetail(ref),
      queryKeys.rolloutHistory(ref, "1h"),
      queryKeys.rolloutMeasuredTraffic(ref, "1h"),
      queryKeys.rolloutActions(ref),
    ]) {
      expect(key.slice(0, prefix.length)).toEqual([...prefix]);
    }
    expect(queryKeys.rolloutHistory(ref, "1h").slice(0, 5)).toEqual([...queryKeys.rolloutHistories(ref)]);
  });
});
