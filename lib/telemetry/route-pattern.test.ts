import { describe, expect, it } from "vitest";
import { createRouteMatcher, UNMATCHED_ROUTE } from "./route-pattern";

// The shape of .next/routes-manifest.json (entries copied from this app's build).
const manifest = {
  staticRoutes: [
    { page: "/", regex: "^/(?:/)?$" },
    { page: "/api/healthz", regex: "^/api/healthz(?:/)?$" },
    { page: "/plugins", regex: "^/plugins(?:/)?$" },
  ],
  dynamicRoutes: [
    { page: "/api/clusters/[cluster]", regex: "^/api/clusters/([^/]+?)(?:/)?$" },
    { page: "/rollouts/[cluster]/[namespace]/[name]", regex: "^/rollouts/([^/]+?)/([^/]+?)/([^/]+?)(?:/)?$" },
  ],
};

describe("createRouteMatcher", () => {
  const routeOf = createRouteMatcher(manifest);

  it("labels a request by the route that serves it, never by the names in its path", () => {
    expect(routeOf("/rollouts/prod/shop/checkout")).toBe("/rollouts/[cluster]/[namespace]/[name]");
    expect(routeOf("/api/clusters/staging")).toBe("/api/clusters/[cluster]");
    expect(routeOf("/api/healthz")).toBe("/api/healthz");
    expect(routeOf("/plugins/")).toBe("/plugins");
    expect(routeOf("/")).toBe("/");
  });

  it("counts a page's prefetch payload as that page, and every asset as one route", () => {
    expect(routeOf("/rollouts/prod/shop/checkout.rsc")).toBe("/rollouts/[cluster]/[namespace]/[name]");
    expect(routeOf("/index.rsc")).toBe("/");
    expect(routeOf("/_next/static/chunks/0a1b2c.js")).toBe("/_next/static");
  });

  it("puts everything else under one label, so a scan of random paths cannot grow the series", () => {
    expect(routeOf("/wp-admin/setup.php")).toBe(UNMATCHED_ROUTE);
    expect(routeOf("/rollouts/prod")).toBe(UNMATCHED_ROUTE);
  });
});
