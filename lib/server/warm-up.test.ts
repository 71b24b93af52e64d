import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { LOOPBACK_HOSTS } from "@/lib/net/host-check";
import { staticAssetPaths, warmUpServer, warmUpStatus, warmUpTarget, type WarmUpTarget } from "./warm-up";

const PAGE = `<html><head><link rel="stylesheet" href="/_next/static/css/app.css"/></head>
<body><script src="/_next/static/chunks/main.js" async=""></script><script src="/_next/static/chunks/main.js"></script></body></html>`;
/** A page naming as many scripts as the overview does (a dozen), all asked for at once. */
const MANY_SCRIPTS = Array.from({ length: 14 }, (_, i) => `<script src="/_next/static/chunks/${i}.js" async=""></script>`).join("");

/** A stand-in for Next's server: answers each path as `answer` says and records what was asked, with which Host. */
async function fakeServer(answer: (path: string, res: http.ServerResponse) => void) {
  const asked: { path: string; host: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    asked.push({ path: req.url ?? "", host: req.headers.host });
    answer(req.url ?? "", res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const target: WarmUpTarget = { address: "127.0.0.1", port, hostHeader: `localhost:${port}` };
  return { asked, target, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const answerLikeNext = (path: string, res: http.ServerResponse) => {
  if (path === "/api/stream") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(": connected\n\n"); // a stream that never ends on its own
  } else res.end(path === "/" ? PAGE : "{}");
};

/** The warm-up of a server whose fleet holds `rollout`, with what it logged. */
async function warmUpWithRollout(target: WarmUpTarget, rollout: { cluster: string; namespace: string; name: string }) {
  const lines: string[] = [];
  const status = await warmUpServer({ target, clusterStates: () => [], sampleRollout: () => rollout, log: (l) => lines.push(l) });
  return { status, lines };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("warmUpServer", () => {
  it("waits for the fleet's first list, then asks for the overview, the API routes it calls and its assets, and is done", async () => {
    const server = await fakeServer(answerLikeNext);
    close = server.close;
    const states = [{ connection: "connecting" as const }];
    let polls = 0;
    const clusterStates = () => (++polls > 2 ? [{ connection: "connected" as const }] : states);
    const lines: string[] = [];
    const warming = warmUpServer({ target: server.target, clusterStates, log: (line) => lines.push(line) });
    expect(warmUpStatus().state).toBe("warming");
    const status = await warming;

    expect(status).toEqual({ state: "done", detail: null });
    expect(warmUpStatus().state).toBe("done");
    expect(polls).toBeGreaterThan(2);
    const paths = server.asked.map((a) => a.path);
    expect(paths[0]).toBe("/");
    expect(new Set(paths)).toEqual(
      new Set([
        "/",
        "/api/session",
        "/api/clusters",
        "/api/rollouts",
        "/api/stream",
        "/_next/static/css/app.css",
        "/_next/static/chunks/main.js",
        "/plugins",
        "/api/plugins",
      ]),
    );
    expect(server.asked.every((a) => a.host === server.target.hostHeader)).toBe(true);
    expect(lines.join("\n")).toMatch(/warmed up in \d+ ms \(2 pages, 5 API routes, 2 assets\); ready/);
  });

  it("then opens a Rollout's detail page, its cluster's page and the API routes the detail page calls", async () => {
    const server = await fakeServer(answerLikeNext);
    close = server.close;
    const { status, lines } = await warmUpWithRollout(server.target, { cluster: "prod eu", namespace: "shop", name: "checkout" });

    expect(status.state).toBe("done");
    const paths = server.asked.map((a) => a.path);
    const later = paths.slice(paths.lastIndexOf("/") + 1);
    expect(later).toEqual([
      "/plugins",
      "/rollouts/prod%20eu/shop/checkout",
      "/clusters/prod%20eu",
      "/api/plugins",
      "/api/clusters/prod%20eu/rollouts/shop/checkout",
      "/api/clusters/prod%20eu/rollouts/shop/checkout/history?range=1h",
      "/api/clusters/prod%20eu/rollouts/shop/checkout/measured-traffic?range=1h",
      "/api/clusters/prod%20eu/rollouts/shop/checkout/replicasets",
      "/api/clusters/prod%20eu",
    ]);
    expect(lines.join("\n")).toMatch(/\(4 pages, 10 API routes, 2 assets\); ready/);
  });

  it("names a later route that answers 5xx (Prometheus down) and is done anyway: the route was loaded", async () => {
    const server = await fakeServer((path, res) => {
      if (path.includes("/measured-traffic")) {
        res.statusCode = 502;
        res.end();
      } else answerLikeNext(path, res);
    });
    close = server.close;
    const { status, lines } = await warmUpWithRollout(server.target, { cluster: "c", namespace: "n", name: "r" });

    expect(status).toEqual({ state: "done", detail: null });
    expect(server.asked.map((a) => a.path)).toContain("/api/clusters/c/rollouts/n/r/replicasets");
    expect(lines.join("\n")).toContain("1 answered with an error: /api/clusters/c/rollouts/n/r/measured-traffic?range=1h); ready");
  });

  it("asks for a dozen assets at once without a listener-leak warning", async () => {
    const server = await fakeServer((path, res) =>
      path === "/" ? res.end(`<html><body>${MANY_SCRIPTS}</body></html>`) : answerLikeNext(path, res),
    );
    close = server.close;
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      expect((await warmUpServer({ target: server.target, clusterStates: () => [], log: () => {} })).state).toBe("done");
      expect(server.asked.filter((a) => a.path.endsWith(".js"))).toHaveLength(14);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("fails with a logged reason (and so no longer holds readiness) when a route answers 5xx", async () => {
    const server = await fakeServer((path, res) => {
      res.statusCode = path === "/" ? 500 : 200;
      res.end();
    });
    close = server.close;
    const lines: string[] = [];
    const status = await warmUpServer({ target: server.target, clusterStates: () => [], log: (line) => lines.push(line) });

    expect(status).toEqual({ state: "failed", detail: "GET / answered 500" });
    expect(lines.join("\n")).toContain("warm-up failed after");
    expect(lines.join("\n")).toContain("(GET / answered 500); ready anyway");
  });

  it("gives up at its bound when the server never answers, and when a cluster never finishes listing warms the routes anyway", async () => {
    const silent = await fakeServer(() => {});
    close = silent.close;
    const status = await warmUpServer({ target: silent.target, clusterStates: () => [], limitMs: 300, log: () => {} });
    expect(status).toEqual({ state: "failed", detail: "GET / did not finish in time" });
    await silent.close();

    const server = await fakeServer(answerLikeNext);
    close = server.close;
    const lines: string[] = [];
    const stuck = await warmUpServer({
      target: server.target,
      clusterStates: () => [{ connection: "connecting" }],
      firstListLimitMs: 300,
      log: (line) => lines.push(line),
    });
    expect(stuck.state).toBe("done");
    expect(server.asked.map((a) => a.path)).toContain("/");
    expect(lines.join("\n")).toContain("some clusters still listing");
  });
});

describe("warmUpTarget", () => {
  it("reaches Next where it listens, addressed as the first host the server answers for", () => {
    expect(warmUpTarget({ PORT: "3000", __NEXT_PRIVATE_ORIGIN: "http://localhost:3000" }, LOOPBACK_HOSTS)).toEqual({
      address: "localhost",
      port: 3000,
      hostHeader: "localhost:3000",
    });
    expect(
      warmUpTarget({ PORT: "8080", __NEXT_PRIVATE_ORIGIN: "http://[::1]:8080" }, [{ hostname: "rollscope.example.com", port: "443" }]),
    ).toEqual({
      address: "::1",
      port: 8080,
      hostHeader: "rollscope.example.com:443",
    });
    expect(warmUpTarget({ PORT: "3000" }, LOOPBACK_HOSTS)?.address).toBe("127.0.0.1");
    expect(warmUpTarget({}, LOOPBACK_HOSTS)).toBeNull();
  });
});

describe("staticAssetPaths", () => {
  it("lists each script and stylesheet of Next's static assets once", () => {
    expect(staticAssetPaths(PAGE)).toEqual(["/_next/static/css/app.css", "/_next/static/chunks/main.js"]);
  });
});
