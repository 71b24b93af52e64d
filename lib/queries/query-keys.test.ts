import { describe, expect, it } from "vitest";
import { parseRolloutKey, queryKeys } from "./query-keys";

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
  });
});

describe("queryKeys", () => {
  it("nests detail and history under the rollout prefix", () => {
    const prefix = queryKeys.rollout("c", "ns", "n");
    expect(queryKeys.rolloutDetail("c", "ns", "n").slice(0, prefix.length)).toEqual([...prefix]);
    expect(queryKeys.rolloutHistory("c", "ns", "n", "1h").slice(0, prefix.length)).toEqual([...prefix]);
  });
});
