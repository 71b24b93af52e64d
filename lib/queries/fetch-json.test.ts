import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { clusterPath, type ClusterDetailResponse, type ClusterListResponse } from "@/lib/contracts/clusters";
import { rolloutActionsPath, runRolloutActionPath, type RolloutActionResult } from "@/lib/contracts/rollout-actions";
import type { ApiPath } from "@/lib/contracts/routes";
import { FetchError, fetchJson } from "./fetch-json";

afterEach(() => vi.unstubAllGlobals());

const rollout = { cluster: "prod", namespace: "shop", name: "checkout" };

describe("fetchJson", () => {
  it("turns the API's error envelope into a FetchError", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: { code: "not_found", message: "cluster nope not found" } }, { status: 404 }));
    const error = (await fetchJson(clusterPath("nope")).catch((e: unknown) => e)) as FetchError;
    expect(error).toBeInstanceOf(FetchError);
    expect([error.status, error.code, error.message]).toEqual([404, "not_found", "cluster nope not found"]);
  });

  // Checked by `npm run typecheck`: should the paths or fetchJson lose their route, these expected errors are unused.
  it("answers with the contract of the route the path was built for", () => {
    expectTypeOf(() => fetchJson(clusterPath("prod"))).returns.resolves.toEqualTypeOf<ClusterDetailResponse>();
    expectTypeOf(() => fetchJson(runRolloutActionPath(rollout), { method: "POST" })).returns.resolves.toEqualTypeOf<RolloutActionResult>();
    // @ts-expect-error -- a type the route does not answer
    expectTypeOf(() => fetchJson<ClusterListResponse>(clusterPath("prod"))).toBeFunction();
    // @ts-expect-error -- the GET route's path is not the POST's
    const post: ApiPath<"POST /api/clusters/[cluster]/rollouts/[namespace]/[name]/actions"> = rolloutActionsPath(rollout);
    // @ts-expect-error -- a plain string names no route
    const typed: ApiPath<"GET /api/clusters"> = "/api/clusters";
    expect([post, typed]).toEqual(["/api/clusters/prod/rollouts/shop/checkout/actions", "/api/clusters"]);
  });
});
