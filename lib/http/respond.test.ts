import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { respond, respondSerialized, serializeJson } from "./respond";

const repo = path.resolve(import.meta.dirname, "../..");

/** The routes that answer something else than JSON: downloads, the event stream, redirects. */
const NOT_JSON = ["GET /api/activity/export", "GET /api/audit/export", "GET /api/auth/callback", "GET /api/auth/signin", "GET /api/stream"];

const cluster: ClusterStateView = {
  name: "prod",
  label: null,
  controllerNamespace: "argo-rollouts",
  connection: "connected",
  since: "2026-01-01T00:00:00.000Z",
  error: null,
  watches: {},
  rolloutCount: 0,
};

/** Every route file under app/api: its handlers as `METHOD /api/…`, and the routes its respond calls name. */
function routeFiles(): Array<{ handlers: string[]; answers: string[]; source: string }> {
  const apiDir = path.join(repo, "app/api");
  return readdirSync(apiDir, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => {
      const source = readFileSync(path.join(apiDir, file), "utf8");
      const route = `/api/${path.dirname(file).split(path.sep).join("/")}`;
      return {
        handlers: [...source.matchAll(/^export const (GET|POST|PUT|PATCH|DELETE) =/gm)].map(([, method]) => `${method} ${route}`),
        answers: [...source.matchAll(/respond(?:Serialized)?\(\s*"([^"]+)"/g)].map((m) => m[1]),
        source,
      };
    });
}

describe("respond", () => {
  it("answers the body as JSON with the given status and headers", async () => {
    const response = respond("GET /api/healthz", { alive: true }, { status: 200, headers: { "cache-control": "no-store" } });
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ alive: true });
  });

  it("answers text serialized once, as JSON", async () => {
    const json = serializeJson({ ready: false });
    const response = respondSerialized("GET /api/readyz", json, { status: 503, headers: { "cache-control": "no-store" } });
    expect([response.status, response.headers.get("content-type"), response.headers.get("cache-control")]).toEqual([
      503,
      "application/json",
      "no-store",
    ]);
    expect(await response.text()).toBe('{"ready":false}');
  });

  // Checked by `npm run typecheck`: should respond lose its typing, these expected errors are unused, and that fails.
  it("refuses a body that is not the route's contract", () => {
    respond("GET /api/clusters/[cluster]", { cluster, phaseCounts: { Healthy: 1 } });
    // @ts-expect-error -- a missing field: the cluster page reads phaseCounts
    respond("GET /api/clusters/[cluster]", { cluster });
    // @ts-expect-error -- a field of another type: counts are numbers
    respond("GET /api/clusters/[cluster]", { cluster, phaseCounts: { Healthy: "1" } });
    // @ts-expect-error -- a field the contract does not have
    respond("GET /api/healthz", { alive: true, uptimeSeconds: 3 });
    // @ts-expect-error -- another route's answer
    respond("GET /api/clusters", { alive: true });
    // @ts-expect-error -- a route that is not in ApiRoutes
    respond("GET /api/nowhere", { alive: true });
    const drifted: { clusters: Array<Omit<ClusterStateView, "connection">> } = { clusters: [] };
    // @ts-expect-error -- a service result that drifted from the contract
    respond("GET /api/clusters", drifted);
    // @ts-expect-error -- text serialized from another shape
    respondSerialized("GET /api/readyz", serializeJson({ alive: true }));
    // @ts-expect-error -- text not serialized through serializeJson has no type
    respondSerialized("GET /api/readyz", '{"ready":true}');
  });
});

describe("the routes under app/api", () => {
  const files = routeFiles();
  const handlers = files.flatMap((f) => f.handlers);

  it("answer JSON through respond, each naming its own route, or are known not to answer JSON", () => {
    expect(handlers.length).toBeGreaterThan(NOT_JSON.length);
    for (const { handlers: own, answers, source } of files) {
      expect(source, own.join(", ")).not.toMatch(/Response\.json\(/);
      for (const answer of answers) expect(own, `a handler of ${own.join(", ")} answers as ${answer}`).toContain(answer);
      for (const handler of own) {
        expect(answers.includes(handler) !== NOT_JSON.includes(handler), `${handler} answers through respond("${handler}", …)`).toBe(true);
      }
    }
  });

  it("are each in ApiRoutes once they answer JSON, and every route there exists", () => {
    const contracts = readFileSync(path.join(repo, "lib/contracts/routes.ts"), "utf8");
    const listed = [...contracts.matchAll(/^\s+"((?:GET|POST|PUT|PATCH|DELETE) \/api[^"]*)":/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(handlers.filter((h) => !NOT_JSON.includes(h)).sort());
    for (const route of NOT_JSON) expect(handlers).toContain(route);
  });
});
