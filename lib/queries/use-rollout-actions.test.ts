import { afterEach, describe, expect, it, vi } from "vitest";
import { FetchError } from "./fetch-json";
import { loadRolloutActions } from "./use-rollout-actions";

const view = (name: string) => ({
  cluster: "prod",
  namespace: "shop",
  name,
  readOnly: false,
  actingAs: "",
  production: false,
  actions: {},
});

afterEach(() => vi.unstubAllGlobals());

describe("loadRolloutActions", () => {
  it("asks once for every card that asks in the same tick, and gives each its own answer or error", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(url);
      const body = {
        views: { "prod/shop/checkout": view("checkout"), "prod/shop/cart": view("cart") },
        errors: { "prod/shop/gone": { code: "not_found", message: "rollout prod/shop/gone not found" } },
      };
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    });
    const [checkout, cart, gone] = await Promise.allSettled([
      loadRolloutActions({ cluster: "prod", namespace: "shop", name: "checkout" }),
      loadRolloutActions({ cluster: "prod", namespace: "shop", name: "cart" }),
      loadRolloutActions({ cluster: "prod", namespace: "shop", name: "gone" }),
    ]);
    expect(urls).toEqual(["/api/rollouts/actions?key=prod%2Fshop%2Fcheckout&key=prod%2Fshop%2Fcart&key=prod%2Fshop%2Fgone"]);
    expect(checkout).toMatchObject({ status: "fulfilled", value: { name: "checkout" } });
    expect(cart).toMatchObject({ status: "fulfilled", value: { name: "cart" } });
    expect(gone.status).toBe("rejected");
    const error = (gone as PromiseRejectedResult).reason as FetchError;
    expect(error).toBeInstanceOf(FetchError);
    expect([error.status, error.code]).toEqual([404, "not_found"]);
  });

  it("keeps the single Rollout's own endpoint when only one asks (the detail page)", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(view("checkout")), { status: 200, headers: { "content-type": "application/json" } });
    });
    await loadRolloutActions({ cluster: "prod", namespace: "shop", name: "checkout" });
    expect(urls).toEqual(["/api/clusters/prod/rollouts/shop/checkout/actions"]);
  });
});
