import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { AuditPage } from "@/lib/audit/schema";
import type { ClusterDetailResponse, ClusterListResponse } from "@/lib/contracts/clusters";
import type { FleetPage } from "@/lib/contracts/fleet-page";
import type { PluginsOverview } from "@/lib/contracts/plugins";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { SessionView } from "@/lib/contracts/session";
import type { FocusedRollout, LiveDelta, LiveSnapshot } from "@/lib/contracts/stream";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { findResourceTypeByKind } from "@/sim/resources";
import { startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { assertFreshBuild } from "@/test/harness/app-process";
import { waitFor } from "@/test/harness/free-port";

/*
 * Reading is authorized per user. The built app (`next start`) runs in auth mode proxy over the demo fleet, and this
 * test is the trusted proxy (127.0.0.1), signing in as the simulator's users:
 *   mallory  no group with any Kubernetes right
 *   carol    shop-readers: get/list/watch in namespace shop only (a RoleBinding there); on staging, which has no
 *            impersonation, a role mapping gives shop-readers the viewer role in shop
 *   bob      viewers: read everything
 *   alice    sre-operators: read everything and act
 *   erin     auditors: no Kubernetes right, but an audit reader (authorization.auditReaders)
 * Needs a production build (`npx next build`), as the e2e tests do.
 */

const CLUSTERS = ["prod-eu", "prod-us", "staging"];
const IDENTITIES = {
  mallory: "nobody",
  carol: "shop-readers",
  dave: "shop-readers",
  bob: "viewers",
  alice: "sre-operators",
  erin: "auditors",
} as const;
type User = keyof typeof IDENTITIES;

let sim: SimulationHandle;
let app: AppProcess;

const headersOf = (user: User) => ({ "x-forwarded-user": user, "x-forwarded-groups": IDENTITIES[user] });

async function call(user: User, pathname: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${app.url}${pathname}`, {
    method: init.method ?? "GET",
    headers: { ...headersOf(user), ...init.headers, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, text, cookies: res.headers.getSetCookie() };
}

async function read<T>(user: User, pathname: string): Promise<T> {
  const reply = await call(user, pathname);
  expect(reply.status, `${user} GET ${pathname}: ${reply.text.slice(0, 300)}`).toBe(200);
  return reply.body as T;
}

/** Every Rollout the simulated clusters hold, as fleet keys, optionally of one namespace. */
function rolloutKeys(namespace?: string): string[] {
  const type = findResourceTypeByKind("argoproj.io/v1alpha1", "Rollout")!;
  return CLUSTERS.flatMap((cluster) =>
    sim
      .cluster(cluster)
      .store.list(type, { namespace })
      .items.map((r) => `${cluster}/${r.metadata.namespace}/${r.metadata.name}`),
  ).sort();
}

interface Frame {
  event: string;
  data: unknown;
}

/** An open `/api/stream` for one user, collecting its frames until closed. */
function openStream(user: User, query = ""): { frames: Frame[]; close(): void } {
  const frames: Frame[] = [];
  const controller = new AbortController();
  void (async () => {
    const res = await fetch(`${app.url}/api/stream${query}`, { headers: headersOf(user), signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const field = (name: string) =>
          block
            .split("\n")
            .find((l) => l.startsWith(`${name}: `))
            ?.slice(name.length + 2);
        const data = field("data");
        if (data !== undefined) frames.push({ event: field("event") ?? "message", data: JSON.parse(data) });
      }
    }
  })().catch(() => undefined);
  return { frames, close: () => controller.abort() };
}

const upserts = (frames: Frame[]) =>
  frames
    .filter((f) => f.event === "delta" && (f.data as LiveDelta).type === "upsert")
    .map((f) => (f.data as Extract<LiveDelta, { type: "upsert" }>).rollout);

beforeAll(async () => {
  assertFreshBuild();
  sim = await startSimulation({ scenario: "demo", timeScale: 30, seed: 11 });
  const configPath = path.join(path.dirname(sim.kubeconfigPath), "rollscope.yaml");
  const config = {
    clusters: CLUSTERS.map((name) => ({ name, kubeconfig: { path: sim.kubeconfigPath, context: name } })),
    auth: { mode: "proxy", proxy: { trustedProxies: ["127.0.0.1/32"] } },
    authorization: {
      clusters: { staging: { impersonate: false } },
      roleMappings: [
        { group: "shop-readers", role: "viewer", clusters: ["staging"], namespaces: ["shop"] },
        { group: "viewers", role: "viewer" },
        { group: "sre-operators", role: "operator" },
      ],
      auditReaders: { groups: ["auditors"] },
    },
  };
  writeFileSync(configPath, stringify(config), { mode: 0o600 });
  app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, env: { ROLLSCOPE_CONFIG: configPath }, readyPath: "/api/session" });
  const all = rolloutKeys();
  await waitFor(
    "every Rollout to be listed",
    async () => (await read<FleetPage>("bob", "/api/rollouts")).total === all.length,
    60_000,
    250,
  );
}, 150_000);

afterAll(async () => {
  await app?.stop();
  await sim?.stop();
});

describe("reading is authorized per user", () => {
  it("a user without Kubernetes rights sees no Rollout, counts of 0, no stream delta, 404 on a detail and 403 on the audit log", async () => {
    const page = await read<FleetPage>("mallory", "/api/rollouts");
    expect(page).toMatchObject({ rows: [], total: 0, matched: 0, attention: { total: 0 }, facets: { namespaces: [] } });
    expect(Object.values(page.counts).every((n) => n === 0)).toBe(true);
    expect(page.clusters.map((c) => [c.name, c.rolloutCount])).toEqual(CLUSTERS.map((name) => [name, 0]));
    expect((await read<ClusterListResponse>("mallory", "/api/clusters")).clusters.every((c) => c.rolloutCount === 0)).toBe(true);
    const cluster = await read<ClusterDetailResponse>("mallory", "/api/clusters/prod-eu");
    expect(Object.values(cluster.phaseCounts).every((n) => n === 0)).toBe(true);

    // Exactly the answer for a Rollout that does not exist, so the name's existence does not leak.
    const missing = await call("mallory", "/api/clusters/prod-eu/rollouts/shop/no-such-rollout");
    expect(missing.status).toBe(404);
    for (const suffix of ["", "/history", "/actions"]) {
      const hidden = await call("mallory", `/api/clusters/prod-eu/rollouts/shop/checkout${suffix}`);
      expect(hidden.status, suffix).toBe(404);
      expect(hidden.body).toEqual({ error: { code: "not_found", message: "Rollout shop/checkout not found in cluster prod-eu" } });
    }
    expect((await call("mallory", "/api/session/permissions?cluster=prod-eu&namespace=shop&name=checkout")).status).toBe(404);

    const plugins = await read<PluginsOverview>("mallory", "/api/plugins");
    expect(plugins.clusters.flatMap((c) => [...c.plugins.flatMap((p) => p.usedBy), ...c.unregistered])).toEqual([]);
    expect(plugins.matrix.rows.flatMap((row) => Object.values(row.cells)).every((cell) => cell.usedBy === 0)).toBe(true);

    expect((await read<SessionView>("mallory", "/api/session")).canReadAudit).toBe(false);
    expect((await call("mallory", "/api/audit")).status).toBe(403);
    expect((await call("mallory", "/api/audit/export?format=csv")).status).toBe(403);
  });

  it("a user without rights gets no stream delta while another user's stream carries the fleet's changes", async () => {
    const nobody = openStream("mallory", "?focus=prod-eu/shop/checkout");
    const viewer = openStream("bob");
    try {
      await waitFor(
        "the viewer's stream to carry changes of three Rollouts",
        async () => new Set(upserts(viewer.frames).map((r) => r.key)).size >= 3,
        60_000,
        200,
      );
    } finally {
      nobody.close();
      viewer.close();
    }
    const snapshot = nobody.frames.find((f) => f.event === "snapshot")?.data as LiveSnapshot;
    expect(snapshot.clusters.map((c) => c.rolloutCount)).toEqual([0, 0, 0]);
    expect(nobody.frames.filter((f) => f.event === "delta" && (f.data as LiveDelta).type !== "cluster")).toEqual([]);
    const focused = nobody.frames.filter((f) => f.event === "rollout").map((f) => (f.data as FocusedRollout).rollout);
    expect(focused).toEqual([null]);
  });

  it("a user with rights in one namespace sees exactly that namespace in pages, counts, details and the stream", async () => {
    const shop = rolloutKeys("shop");
    expect(shop.length).toBeGreaterThan(0);
    expect(rolloutKeys().length).toBeGreaterThan(shop.length);

    const page = await read<FleetPage>("carol", "/api/rollouts");
    expect(page.rows.map((r) => r.key).sort()).toEqual(shop);
    expect(page.total).toBe(shop.length);
    expect(Object.values(page.counts).reduce((a, b) => a + b, 0)).toBe(shop.length);
    expect(page.facets.namespaces).toEqual(["shop"]);
    const perCluster = (await read<ClusterListResponse>("carol", "/api/clusters")).clusters.map((c) => [c.name, c.rolloutCount]);
    expect(perCluster).toEqual(CLUSTERS.map((name) => [name, shop.filter((key) => key.startsWith(`${name}/`)).length]));
    const staging = await read<ClusterDetailResponse>("carol", "/api/clusters/staging");
    expect(Object.values(staging.phaseCounts).reduce<number>((sum, n) => sum + (n ?? 0), 0)).toBe(
      shop.filter((key) => key.startsWith("staging/")).length,
    );

    expect((await call("carol", "/api/clusters/prod-eu/rollouts/shop/checkout")).status).toBe(200);
    expect((await call("carol", "/api/clusters/staging/rollouts/shop/checkout")).status).toBe(200);
    expect((await call("carol", "/api/clusters/prod-eu/rollouts/payments/payments-api")).status).toBe(404);
    expect((await call("carol", "/api/clusters/staging/rollouts/payments/payments-api")).status).toBe(404);

    const mine = openStream("carol");
    const everything = openStream("bob");
    try {
      await waitFor(
        "a change in shop on carol's stream and one elsewhere on bob's",
        async () => upserts(mine.frames).length > 0 && upserts(everything.frames).some((r) => r.namespace !== "shop"),
        90_000,
        200,
      );
    } finally {
      mine.close();
      everything.close();
    }
    expect(new Set(upserts(mine.frames).map((r) => r.namespace))).toEqual(new Set(["shop"]));
    const snapshot = mine.frames.find((f) => f.event === "snapshot")?.data as LiveSnapshot;
    expect(snapshot.clusters.map((c) => [c.name, c.rolloutCount])).toEqual(perCluster);

    // Not an audit reader: the log and its exports stay closed.
    expect((await call("carol", "/api/audit/export?format=json")).status).toBe(403);
  });

  it("an audit reader sees the audit log with its exports; a reader of every Rollout who is not one does not", async () => {
    const signIn = await call("alice", "/api/session");
    const session = signIn.body as SessionView;
    const cookie = signIn.cookies[0].split(";")[0];
    const target = "/api/clusters/prod-eu/rollouts/platform/notifications/actions";
    // The demo fleet keeps moving: when the Rollout took a step between the read and the pause (409 stale, "review
    // and retry"), alice does what the page tells her — reads it again and retries.
    const done = await waitFor(
      "alice's pause to be accepted",
      async () => {
        const options = await read<RolloutActionsView>("alice", target);
        const reply = await call("alice", target, {
          method: "POST",
          headers: { cookie, "x-csrf-token": session.csrfToken, origin: app.url },
          body: { action: "pause", expected: options.expected },
        });
        return reply.status === 409 && (reply.body as { error?: { code?: string } }).error?.code === "stale" ? null : reply;
      },
      60_000,
    );
    expect(done.status, done.text).toBe(200);

    expect((await read<SessionView>("erin", "/api/session")).canReadAudit).toBe(true);
    const audit = await read<AuditPage>("erin", "/api/audit?rollout=notifications");
    expect(audit.entries[0]).toMatchObject({
      user: "alice",
      groups: ["sre-operators"],
      action: "pause",
      outcome: "done",
      clientAddress: expect.stringContaining("127.0.0.1"),
    });
    const csv = await call("erin", "/api/audit/export?format=csv&rollout=notifications");
    expect(csv.status).toBe(200);
    expect(csv.text).toContain("alice");

    expect((await read<SessionView>("bob", "/api/session")).canReadAudit).toBe(false);
    expect((await call("bob", "/api/audit")).status).toBe(403);
    expect((await call("bob", "/api/audit/export?format=csv")).status).toBe(403);
  });

  it("a cluster whose permission check fails is hidden on its own, with the reason, and the others are answered", async () => {
    await sim.cluster("prod-us").apiServer.stop();
    // dave reads what carol reads, but has no permissions cached yet: they must be asked of the stopped cluster.
    const page = await waitFor(
      "prod-us to report that dave's permissions could not be checked",
      async () => {
        const current = await read<FleetPage>("dave", "/api/rollouts");
        return current.clusters.find((c) => c.name === "prod-us")?.readError ? current : null;
      },
      30_000,
      250,
    );
    expect(page.clusters.find((c) => c.name === "prod-us")).toMatchObject({
      rolloutCount: 0,
      readError: expect.stringContaining("could not be checked"),
    });
    expect(page.rows.map((r) => r.key).sort()).toEqual(rolloutKeys("shop").filter((key) => !key.startsWith("prod-us/")));
  });
});

describe("a tab's stream carries the rows it holds", () => {
  const rolloutType = () => findResourceTypeByKind("argoproj.io/v1alpha1", "Rollout")!;
  const keyOf = (f: Frame) => {
    const delta = f.data as LiveDelta;
    return delta.type === "upsert" ? delta.rollout.key : delta.type === "delete" ? delta.key : null;
  };
  const rolloutDeltas = (frames: Frame[]) => frames.filter((f) => f.event === "delta" && keyOf(f) !== null);

  it("a detail page alone gets its Rollout's changes and the cluster states, a cluster page its cluster's rows, and both where they stand", async () => {
    const [focus] = rolloutKeys("shop").filter((key) => key.startsWith("prod-eu/"));
    const [, namespace, name] = focus.split("/");
    const fleet = openStream("bob");
    const detail = openStream("bob", `?rows=-&focus=${encodeURIComponent(focus)}`);
    const staging = openStream("bob", "?rows=staging");
    try {
      await waitFor(
        "the streams to open",
        async () => [fleet, detail, staging].every((s) => s.frames.some((f) => f.event === "snapshot")),
        30_000,
        100,
      );
      // Changes of the focused Rollout and of one of staging (a label), besides the simulation's own changes.
      const [stagingKey] = rolloutKeys().filter((key) => key.startsWith("staging/"));
      for (const key of [focus, stagingKey]) {
        const [cluster, ns, n] = key.split("/");
        sim.cluster(cluster).store.update(rolloutType(), ns, n, (draft) => ({
          ...draft,
          metadata: { ...draft.metadata, labels: { ...draft.metadata.labels, "rollscope.test/probe": "stream-rows" } },
        }));
      }
      await waitFor(
        "the fleet's stream to carry changes of two clusters, the detail's its Rollout and the cluster page's one of staging",
        async () =>
          new Set(rolloutDeltas(fleet.frames).map((f) => keyOf(f)!.split("/")[0])).size >= 2 &&
          rolloutDeltas(detail.frames).some((f) => keyOf(f) === focus) &&
          rolloutDeltas(staging.frames).length > 0 &&
          detail.frames.some((f) => f.event === "position"),
        60_000,
        200,
      );
    } finally {
      fleet.close();
      detail.close();
      staging.close();
    }
    expect(new Set(rolloutDeltas(detail.frames).map(keyOf))).toEqual(new Set([focus]));
    expect(detail.frames.filter((f) => f.event === "rollout").map((f) => (f.data as FocusedRollout).ref)).toContainEqual({
      cluster: "prod-eu",
      namespace,
      name,
    });
    expect(new Set(rolloutDeltas(staging.frames).map((f) => keyOf(f)!.split("/")[0]))).toEqual(new Set(["staging"]));
    // The position a detail page resumes from moves on with the fleet although no row of it came.
    const snapshotSeq = (detail.frames.find((f) => f.event === "snapshot")!.data as LiveSnapshot).seq;
    expect(Math.max(...detail.frames.filter((f) => f.event === "position").map((f) => f.data as number))).toBeGreaterThan(snapshotSeq);
  });
});
