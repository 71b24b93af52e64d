import http, { type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ApiException,
  AuthorizationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ObjectMeta,
  Watch,
} from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiServerHandle, type RbacBinding, type SimUser, startApiServer } from "@/sim/apiserver";
import { buildKubeconfig } from "@/sim/kubeconfig";
import { findResourceType } from "@/sim/resources";
import { type KubeObject, ObjectStore } from "@/sim/store/object-store";

const rollouts = findResourceType("argoproj.io", "v1alpha1", "rollouts")!;
const services = findResourceType("", "v1", "services")!;
const RO = { group: "argoproj.io", version: "v1alpha1", plural: "rollouts" } as const;

/** admin: everything (system:masters). alice: read + patch rollouts in "rbac" only. imp: may impersonate. bob: nothing. */
const USERS: SimUser[] = [
  { name: "admin", token: "admin-token", groups: ["system:masters"] },
  { name: "alice", token: "alice-token", groups: ["shop-devs"] },
  { name: "imp", token: "imp-token", groups: [] },
  { name: "bob", token: "bob-token", groups: [] },
];

const RBAC: RbacBinding[] = [
  {
    name: "shop-devs-rollouts",
    subjects: [{ kind: "Group", name: "shop-devs" }],
    rules: [
      { verbs: ["get", "list", "watch", "patch"], apiGroups: ["argoproj.io"], resources: ["rollouts"], namespaces: ["rbac"] },
      { verbs: ["get"], apiGroups: [""], resources: ["services/proxy"], namespaces: ["proxy"] },
    ],
  },
  {
    name: "impersonators",
    subjects: [{ kind: "User", name: "imp" }],
    rules: [{ verbs: ["impersonate"], apiGroups: [""], resources: ["users", "groups"] }],
  },
];

type Rollout = KubernetesObject & {
  metadata: V1ObjectMeta & { name: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};

function rollout(name: string, namespace: string, spec: Record<string, unknown> = { replicas: 2 }): KubeObject {
  return { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", metadata: { name, namespace, labels: { app: name } }, spec };
}

interface Clients {
  kc: KubeConfig;
  custom: CustomObjectsApi;
  core: CoreV1Api;
  authz: AuthorizationV1Api;
}

function clientsFor(server: ApiServerHandle, token: string): Clients {
  const kc = new KubeConfig();
  kc.loadFromString(buildKubeconfig([{ name: "sim", server: server.url, token }]));
  return { kc, custom: kc.makeApiClient(CustomObjectsApi), core: kc.makeApiClient(CoreV1Api), authz: kc.makeApiClient(AuthorizationV1Api) };
}

interface StatusBody {
  kind: string;
  status: string;
  message: string;
  reason: string;
  code: number;
  details?: { name?: string; group?: string; kind?: string; retryAfterSeconds?: number };
}

async function failure(call: Promise<unknown>): Promise<{ code: number; status: StatusBody; headers: Record<string, string> }> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof ApiException)) throw err;
    const body = err.body as unknown;
    return { code: err.code, status: JSON.parse(typeof body === "string" ? body : "{}") as StatusBody, headers: err.headers };
  }
  throw new Error("expected the call to fail");
}

const mergePatch = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

let store: ObjectStore;
let server: ApiServerHandle;
let admin: Clients;

beforeAll(async () => {
  store = new ObjectStore();
  server = await startApiServer({ store, users: USERS, rbac: RBAC, bookmarkIntervalMs: 50 });
  admin = clientsFor(server, "admin-token");
});

afterEach(() => server.faults.reset());

afterAll(async () => {
  await server.stop();
});

function listFn(clients: Clients, namespace: string, counter: { lists: number }) {
  return async (): Promise<KubernetesListObject<Rollout>> => {
    counter.lists++;
    return (await clients.custom.listNamespacedCustomObject({ ...RO, namespace })) as KubernetesListObject<Rollout>;
  };
}

describe("resources over HTTP", () => {
  it("refuses to bind a non-loopback address and answers 401 to an unknown or missing token", async () => {
    await expect(startApiServer({ store, users: USERS, rbac: [], host: "0.0.0.0" })).rejects.toThrow(/loopback/);
    const unknown = await failure(clientsFor(server, "nope").custom.listClusterCustomObject(RO));
    expect(unknown.code).toBe(401);
    const missing = await fetch(`${server.url}/apis/argoproj.io/v1alpha1/rollouts`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Unauthorized",
      reason: "Unauthorized",
      code: 401,
    });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it("lists across namespaces and watches ADDED, MODIFIED, DELETED and BOOKMARK events", async () => {
    store.ensureNamespace("list-a");
    store.ensureNamespace("list-b");
    await admin.custom.createNamespacedCustomObject({ ...RO, namespace: "list-a", body: rollout("one", "list-a") });
    await admin.custom.createNamespacedCustomObject({ ...RO, namespace: "list-b", body: rollout("two", "list-b") });
    const all = (await admin.custom.listClusterCustomObject(RO)) as KubernetesListObject<Rollout>;
    expect(all.kind).toBe("RolloutList");
    expect(all.items.map((r) => `${r.metadata!.namespace}/${r.metadata!.name}`)).toEqual(
      expect.arrayContaining(["list-a/one", "list-b/two"]),
    );

    const events: Array<{ type: string; name?: string; rv?: string }> = [];
    const done = vi.fn();
    const controller = await new Watch(admin.kc).watch(
      "/apis/argoproj.io/v1alpha1/namespaces/list-a/rollouts",
      { allowWatchBookmarks: true, resourceVersion: all.metadata!.resourceVersion },
      (type: string, obj: KubernetesObject) => events.push({ type, name: obj.metadata?.name, rv: obj.metadata?.resourceVersion }),
      done,
    );
    store.create(rollouts, "list-a", rollout("three", "list-a"));
    await admin.custom.patchNamespacedCustomObject(
      { ...RO, namespace: "list-a", name: "one", body: { spec: { paused: true } } },
      mergePatch,
    );
    await admin.custom.deleteNamespacedCustomObject({ ...RO, namespace: "list-a", name: "three" });
    await vi.waitFor(() => {
      expect(events.filter((e) => e.type !== "BOOKMARK").map((e) => `${e.type} ${e.name}`)).toEqual([
        "ADDED three",
        "MODIFIED one",
        "DELETED three",
      ]);
      expect(events.some((e) => e.type === "BOOKMARK" && e.rv === store.resourceVersion)).toBe(true);
    });
    controller.abort();
  });

  it("serves discovery with subresources, a 410 as an in-stream ERROR event, and ends a watch at timeoutSeconds", async () => {
    const auth = { headers: { Authorization: "Bearer admin-token" } };
    const group = (await (await fetch(`${server.url}/apis/argoproj.io/v1alpha1`, auth)).json()) as {
      resources: Array<{ name: string; kind: string; verbs: string[] }>;
    };
    expect(group.resources.find((r) => r.name === "rollouts")).toMatchObject({
      kind: "Rollout",
      shortNames: ["ro"],
      categories: ["all"],
      namespaced: true,
    });
    expect(group.resources.find((r) => r.name === "rollouts/status")).toMatchObject({ kind: "Rollout", verbs: ["get", "patch", "update"] });
    expect(group.resources.find((r) => r.name === "rollouts/scale")).toMatchObject({ group: "autoscaling", version: "v1", kind: "Scale" });

    store.ensureNamespace("expired");
    store.create(rollouts, "expired", rollout("old", "expired"));
    const before = Number(store.resourceVersion);
    store.patch(rollouts, "expired", "old", "merge", { spec: { replicas: 3 } });
    store.compact();
    const expired = await fetch(`${server.url}/apis/argoproj.io/v1alpha1/rollouts?watch=true&resourceVersion=${before}`, auth);
    expect(expired.status).toBe(200);
    const lines = (await expired.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; object: StatusBody });
    expect(lines).toHaveLength(1);
    expect(lines[0].type).toBe("ERROR");
    expect(lines[0].object).toMatchObject({ kind: "Status", status: "Failure", reason: "Expired", code: 410 });

    const started = Date.now();
    const timed = await fetch(`${server.url}/apis/argoproj.io/v1alpha1/namespaces/expired/rollouts?watch=1&timeoutSeconds=1`, auth);
    const events = (await timed.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.map((e) => e.type)).toEqual(["ADDED"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("applies merge and JSON patches", async () => {
    store.ensureNamespace("patching");
    await admin.custom.createNamespacedCustomObject({ ...RO, namespace: "patching", body: rollout("p", "patching") });
    const merged = (await admin.custom.patchNamespacedCustomObject(
      { ...RO, namespace: "patching", name: "p", body: { metadata: { labels: { tier: "web" } }, spec: { replicas: 5 } } },
      mergePatch,
    )) as Rollout;
    expect(merged.metadata.labels).toEqual({ app: "p", tier: "web" });
    expect(merged.spec!.replicas).toBe(5);
    // JSON patch is client-node's default patch content type.
    const jsonPatched = (await admin.custom.patchNamespacedCustomObject({
      ...RO,
      namespace: "patching",
      name: "p",
      body: [
        { op: "replace", path: "/spec/replicas", value: 1 },
        { op: "remove", path: "/metadata/labels/tier" },
      ],
    })) as Rollout;
    expect(jsonPatched.spec!.replicas).toBe(1);
    expect(jsonPatched.metadata.labels).toEqual({ app: "p" });
    const bad = await failure(
      admin.custom.patchNamespacedCustomObject({ ...RO, namespace: "patching", name: "p", body: [{ op: "remove", path: "/spec/nope" }] }),
    );
    expect(bad.code).toBe(422);
    // Custom resources have no strategic merge patch, as on a real cluster.
    const smp = await failure(
      admin.custom.patchNamespacedCustomObject(
        { ...RO, namespace: "patching", name: "p", body: { spec: {} } },
        setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
      ),
    );
    expect(smp.code).toBe(415);
  });

  it("keeps status and spec apart on the main resource and /status, bumping generation on spec changes only", async () => {
    store.ensureNamespace("status");
    const created = (await admin.custom.createNamespacedCustomObject({
      ...RO,
      namespace: "status",
      body: { ...rollout("s", "status"), status: { phase: "Healthy" } },
    })) as Rollout;
    expect(created.status).toBeUndefined();
    expect(created.metadata.generation).toBe(1);

    const withStatus = (await admin.custom.patchNamespacedCustomObjectStatus(
      { ...RO, namespace: "status", name: "s", body: { spec: { replicas: 9 }, status: { phase: "Paused", abort: false } } },
      mergePatch,
    )) as Rollout;
    expect(withStatus.status).toEqual({ phase: "Paused", abort: false });
    expect(withStatus.spec).toEqual({ replicas: 2 });
    expect(withStatus.metadata.generation).toBe(1);

    const mainWrite = (await admin.custom.patchNamespacedCustomObject(
      { ...RO, namespace: "status", name: "s", body: { spec: { paused: true }, status: { phase: "Degraded" } } },
      mergePatch,
    )) as Rollout;
    expect(mainWrite.status).toEqual({ phase: "Paused", abort: false });
    expect(mainWrite.metadata.generation).toBe(2);

    const replaced = (await admin.custom.replaceNamespacedCustomObjectStatus({
      ...RO,
      namespace: "status",
      name: "s",
      body: { ...mainWrite, status: { phase: "Healthy" } },
    })) as Rollout;
    expect(replaced.status).toEqual({ phase: "Healthy" });
    expect(replaced.metadata.generation).toBe(2);
    const fetched = (await admin.custom.getNamespacedCustomObjectStatus({ ...RO, namespace: "status", name: "s" })) as Rollout;
    expect(fetched.metadata.resourceVersion).toBe(replaced.metadata.resourceVersion);
  });

  it("serves the scale subresource from spec.replicas, status.HPAReplicas and status.selector", async () => {
    store.ensureNamespace("scale");
    store.create(rollouts, "scale", rollout("sc", "scale", { replicas: 3 }));
    store.update(rollouts, "scale", "sc", (d) => ({ ...d, status: { HPAReplicas: 2, selector: "app=sc" } }), { subresource: "status" });
    const scale = (await admin.custom.getNamespacedCustomObjectScale({ ...RO, namespace: "scale", name: "sc" })) as {
      kind: string;
      spec: { replicas: number };
      status: { replicas: number; selector: string };
    };
    expect(scale).toMatchObject({ kind: "Scale", spec: { replicas: 3 }, status: { replicas: 2, selector: "app=sc" } });
    await admin.custom.patchNamespacedCustomObjectScale(
      { ...RO, namespace: "scale", name: "sc", body: { spec: { replicas: 6 } } },
      mergePatch,
    );
    expect(store.get(rollouts, "scale", "sc").spec).toEqual({ replicas: 6 });
    expect(store.get(rollouts, "scale", "sc").metadata.generation).toBe(2);
  });

  it("refuses a PUT with a stale resourceVersion with 409 Conflict", async () => {
    store.ensureNamespace("conflict");
    const created = (await admin.custom.createNamespacedCustomObject({
      ...RO,
      namespace: "conflict",
      body: rollout("c", "conflict"),
    })) as Rollout;
    await admin.custom.patchNamespacedCustomObject(
      { ...RO, namespace: "conflict", name: "c", body: { spec: { replicas: 4 } } },
      mergePatch,
    );
    const stale = await failure(
      admin.custom.replaceNamespacedCustomObject({ ...RO, namespace: "conflict", name: "c", body: { ...created, spec: { replicas: 7 } } }),
    );
    expect(stale.code).toBe(409);
    expect(stale.status).toMatchObject({
      reason: "Conflict",
      message:
        'Operation cannot be fulfilled on rollouts.argoproj.io "c": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: "c", group: "argoproj.io", kind: "rollouts" },
    });
    const current = store.get(rollouts, "conflict", "c");
    const ok = (await admin.custom.replaceNamespacedCustomObject({
      ...RO,
      namespace: "conflict",
      name: "c",
      body: { ...current, spec: { replicas: 7 } },
    })) as Rollout;
    expect(ok.spec).toEqual({ replicas: 7 });
  });

  it("pages with limit/continue and filters with label and field selectors", async () => {
    store.ensureNamespace("paging");
    for (const name of ["a", "b", "c", "d", "e"]) {
      await admin.core.createNamespacedConfigMap({
        namespace: "paging",
        body: { metadata: { name, labels: { odd: String("ace".includes(name)) } }, data: { k: name } },
      });
    }
    const names: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await admin.core.listNamespacedConfigMap({ namespace: "paging", limit: 2, _continue: token });
      names.push(...page.items.map((c) => c.metadata!.name!));
      if (pages === 0) expect(page.metadata!.remainingItemCount).toBe(3);
      token = page.metadata!._continue;
      pages++;
    } while (token);
    expect(names).toEqual(["a", "b", "c", "d", "e"]);
    expect(pages).toBe(3);
    const odd = await admin.core.listNamespacedConfigMap({ namespace: "paging", labelSelector: "odd=true" });
    expect(odd.items.map((c) => c.metadata!.name)).toEqual(["a", "c", "e"]);

    for (const [name, target] of [
      ["e1", "checkout"],
      ["e2", "cart"],
      ["e3", "checkout"],
    ]) {
      await admin.core.createNamespacedEvent({
        namespace: "paging",
        body: {
          metadata: { name },
          involvedObject: { kind: "Rollout", name: target, namespace: "paging" },
          reason: "RolloutUpdated",
          message: "m",
          type: "Normal",
        },
      });
    }
    const events = await admin.core.listNamespacedEvent({
      namespace: "paging",
      fieldSelector: "involvedObject.name=checkout,involvedObject.kind=Rollout",
    });
    expect(events.items.map((e) => e.metadata!.name)).toEqual(["e1", "e3"]);
    const badSelector = await failure(admin.core.listNamespacedEvent({ namespace: "paging", fieldSelector: "spec.nope=1" }));
    expect(badSelector.code).toBe(400);
  });
});

describe("informers through faults", () => {
  it("relists after a 410 (expired watch or compacted history) and converges, reporting the deletion", async () => {
    store.ensureNamespace("relist");
    for (const name of ["keep", "gone"]) store.create(rollouts, "relist", rollout(name, "relist"));
    const counter = { lists: 0 };
    const informer = makeInformer<Rollout>(
      admin.kc,
      "/apis/argoproj.io/v1alpha1/namespaces/relist/rollouts",
      listFn(admin, "relist", counter),
    );
    const deleted: string[] = [];
    informer.on("delete", (obj) => deleted.push(obj.metadata.name));
    informer.on("error", () => setTimeout(() => void informer.start(), 10));
    await informer.start();
    expect(
      informer
        .list()
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(["gone", "keep"]);

    // Injected expiry: the reconnecting watch gets an in-stream ERROR 410 and the informer lists again.
    server.faults.expireNextWatch();
    server.faults.dropWatches();
    store.delete(rollouts, "relist", "gone");
    store.create(rollouts, "relist", rollout("new", "relist"));
    await vi.waitFor(() => {
      expect(counter.lists).toBe(2);
      expect(
        informer
          .list()
          .map((o) => o.metadata.name)
          .sort(),
      ).toEqual(["keep", "new"]);
    });
    expect(deleted).toEqual(["gone"]);

    // Compacted history: resuming from the old resourceVersion is impossible, so only a relist can converge.
    server.faults.dropWatches();
    store.patch(rollouts, "relist", "keep", "merge", { spec: { replicas: 8 } });
    store.delete(rollouts, "relist", "new");
    store.compact();
    await vi.waitFor(() => {
      expect(counter.lists).toBe(3);
      expect(informer.list().map((o) => o.metadata.name)).toEqual(["keep"]);
      expect(informer.get("keep", "relist")?.spec?.replicas).toBe(8);
    });
    expect(deleted).toEqual(["gone", "new"]);
    await informer.stop();
  });

  it("reconnects after dropped watches and catches up from its resourceVersion without relisting", async () => {
    store.ensureNamespace("drop");
    store.create(rollouts, "drop", rollout("d", "drop"));
    const counter = { lists: 0 };
    const informer = makeInformer<Rollout>(admin.kc, "/apis/argoproj.io/v1alpha1/namespaces/drop/rollouts", listFn(admin, "drop", counter));
    let connects = 0;
    informer.on("connect", () => connects++);
    informer.on("error", () => setTimeout(() => void informer.start(), 10));
    // start() resolves once the watch response has begun, so the watch is open on the server.
    await informer.start();

    server.faults.dropWatches();
    // Made while the informer has no watch open: it must arrive through the resumed watch.
    store.patch(rollouts, "drop", "d", "merge", { spec: { paused: true } });
    store.create(rollouts, "drop", rollout("d2", "drop"));
    await vi.waitFor(() => {
      expect(informer.get("d", "drop")?.spec?.paused).toBe(true);
      expect(informer.get("d2", "drop")).toBeDefined();
    });
    expect(connects).toBeGreaterThanOrEqual(2);
    expect(counter.lists).toBe(1);
    await informer.stop();
  });
});

describe("RBAC, impersonation and access reviews", () => {
  it("answers 403 with the API server's exact message", async () => {
    store.ensureNamespace("rbac");
    store.ensureNamespace("elsewhere");
    store.create(rollouts, "rbac", rollout("x", "rbac"));
    const alice = clientsFor(server, "alice-token");
    expect(
      ((await alice.custom.listNamespacedCustomObject({ ...RO, namespace: "rbac" })) as KubernetesListObject<Rollout>).items,
    ).toHaveLength(1);
    await alice.custom.patchNamespacedCustomObject({ ...RO, namespace: "rbac", name: "x", body: { spec: { paused: true } } }, mergePatch);

    const status = await failure(
      alice.custom.patchNamespacedCustomObjectStatus(
        { ...RO, namespace: "rbac", name: "x", body: { status: { abort: true } } },
        mergePatch,
      ),
    );
    expect(status.code).toBe(403);
    expect(status.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'rollouts.argoproj.io "x" is forbidden: User "alice" cannot patch resource "rollouts/status" in API group "argoproj.io" in the namespace "rbac"',
      reason: "Forbidden",
      details: { name: "x", group: "argoproj.io", kind: "rollouts" },
      code: 403,
    });
    const clusterList = await failure(alice.custom.listClusterCustomObject(RO));
    expect(clusterList.status.message).toBe(
      'rollouts.argoproj.io is forbidden: User "alice" cannot list resource "rollouts" in API group "argoproj.io" at the cluster scope',
    );
    const otherNs = await failure(alice.custom.listNamespacedCustomObject({ ...RO, namespace: "elsewhere" }));
    expect(otherNs.status.message).toBe(
      'rollouts.argoproj.io is forbidden: User "alice" cannot list resource "rollouts" in API group "argoproj.io" in the namespace "elsewhere"',
    );
    const core = await failure(alice.core.listNamespacedConfigMap({ namespace: "rbac" }));
    expect(core.status.message).toBe(
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "rbac"',
    );
  });

  it("honours Impersonate-User/Group only for users allowed to impersonate", async () => {
    store.ensureNamespace("rbac");
    const imp = clientsFor(server, "imp-token");
    const asAlice = setHeaderOptions("Impersonate-User", "alice");
    // imp alone cannot read rollouts; as alice (no groups given, so not in shop-devs) neither; with the group it can.
    expect((await failure(imp.custom.listNamespacedCustomObject({ ...RO, namespace: "rbac" }))).code).toBe(403);
    const withoutGroup = await failure(imp.custom.listNamespacedCustomObject({ ...RO, namespace: "rbac" }, asAlice));
    expect(withoutGroup.status.message).toContain('User "alice" cannot list resource "rollouts"');
    const withGroup = setHeaderOptions("Impersonate-Group", "shop-devs", asAlice);
    await expect(imp.custom.listNamespacedCustomObject({ ...RO, namespace: "rbac" }, withGroup)).resolves.toMatchObject({
      kind: "RolloutList",
    });
    const review = await imp.authz.createSelfSubjectAccessReview(
      { body: { spec: { resourceAttributes: { verb: "patch", group: "argoproj.io", resource: "rollouts", namespace: "rbac" } } } },
      withGroup,
    );
    expect(review.status?.allowed).toBe(true);

    const bob = clientsFor(server, "bob-token");
    const refused = await failure(bob.custom.listNamespacedCustomObject({ ...RO, namespace: "rbac" }, asAlice));
    expect(refused.code).toBe(403);
    expect(refused.status.message).toBe(
      'users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it("answers SelfSubjectAccessReview and SubjectAccessReview from the same rules", async () => {
    const alice = clientsFor(server, "alice-token");
    const attrs = { verb: "patch", group: "argoproj.io", resource: "rollouts", subresource: "status", namespace: "rbac" };
    const self = await alice.authz.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: attrs } } });
    expect(self.status).toEqual({ allowed: false });
    const selfMain = await alice.authz.createSelfSubjectAccessReview({
      body: { spec: { resourceAttributes: { ...attrs, subresource: "" } } },
    });
    expect(selfMain.status?.allowed).toBe(true);
    expect(selfMain.status?.reason).toContain("shop-devs-rollouts");

    const forAlice = await admin.authz.createSubjectAccessReview({
      body: { spec: { user: "alice", groups: ["shop-devs"], resourceAttributes: { ...attrs, subresource: "" } } },
    });
    expect(forAlice.status?.allowed).toBe(true);
    const forBob = await admin.authz.createSubjectAccessReview({ body: { spec: { user: "bob", resourceAttributes: attrs } } });
    expect(forBob.status?.allowed).toBe(false);
    const invalid = await failure(admin.authz.createSubjectAccessReview({ body: { spec: { resourceAttributes: attrs } } }));
    expect(invalid.code).toBe(422);

    const denied = await failure(alice.authz.createSubjectAccessReview({ body: { spec: { user: "bob", resourceAttributes: attrs } } }));
    expect(denied.status.message).toBe(
      'subjectaccessreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
  });
});

describe("faults and lifecycle", () => {
  it("fails the next requests with 503/429 and Retry-After, leaving discovery alone", async () => {
    server.faults.failNext(2, 503, 7);
    const discovery = await fetch(`${server.url}/apis`, { headers: { Authorization: "Bearer admin-token" } });
    expect(discovery.status).toBe(200);
    const first = await failure(admin.custom.listClusterCustomObject(RO));
    expect(first.code).toBe(503);
    expect(first.headers["retry-after"]).toBe("7");
    expect(first.status).toMatchObject({ reason: "ServiceUnavailable", details: { retryAfterSeconds: 7 } });
    expect((await failure(admin.custom.listClusterCustomObject(RO))).code).toBe(503);
    await expect(admin.custom.listClusterCustomObject(RO)).resolves.toMatchObject({ kind: "RolloutList" });

    server.faults.failNext(1, 429);
    const throttled = await failure(admin.custom.listClusterCustomObject(RO));
    expect(throttled.code).toBe(429);
    expect(throttled.headers["retry-after"]).toBe("1");
  });

  it("delays responses by the injected latency", async () => {
    server.faults.setLatency(150);
    const started = Date.now();
    await admin.custom.listClusterCustomObject(RO);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("goes down and comes back on the same port, closing open watches", async () => {
    const port = server.port;
    const done = vi.fn();
    const controller = await new Watch(admin.kc).watch("/apis/argoproj.io/v1alpha1/rollouts", {}, () => {}, done);
    await server.stop();
    expect(server.running).toBe(false);
    await vi.waitFor(() => expect(done).toHaveBeenCalled());
    await expect(fetch(`${server.url}/readyz`)).rejects.toThrow();
    await server.start();
    expect(server.running).toBe(true);
    expect(server.port).toBe(port);
    await expect(admin.custom.listClusterCustomObject(RO)).resolves.toMatchObject({ kind: "RolloutList" });
    controller.abort();
  });
});

describe("service proxy", () => {
  let target: http.Server;
  let targetUrl: string;

  beforeAll(async () => {
    target = http.createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        res.writeHead(201, { "Content-Type": "application/json", "X-Echo": "yes" });
        res.end(
          JSON.stringify({
            method: req.method,
            url: req.url,
            body: Buffer.concat(chunks).toString(),
            auth: req.headers.authorization ?? null,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    store.ensureNamespace("proxy");
    store.create(services, "proxy", {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "prometheus", annotations: { "sim.rollscope.dev/proxy-target": targetUrl } },
      spec: { ports: [{ port: 9090 }] },
    });
    store.create(services, "proxy", { apiVersion: "v1", kind: "Service", metadata: { name: "idle" }, spec: {} });
  });

  afterAll(async () => {
    await new Promise((resolve) => target.close(resolve));
  });

  const proxied = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1/namespaces/proxy/services/${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...init.headers },
    });

  it("forwards method, path, query and body and streams the answer back", async () => {
    const res = await proxied("prometheus:9090/proxy/api/v1/query?query=up%7Bjob%3D%22x%22%7D", "admin-token", {
      method: "POST",
      body: "a=b",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-echo")).toBe("yes");
    expect(await res.json()).toEqual({ method: "POST", url: "/api/v1/query?query=up%7Bjob%3D%22x%22%7D", body: "a=b", auth: null });
    const viaScheme = await proxied("http:prometheus:9090/proxy/", "alice-token");
    expect(((await viaScheme.json()) as { url: string }).url).toBe("/");
    const bare = await proxied("prometheus/proxy", "admin-token");
    expect(((await bare.json()) as { url: string }).url).toBe("/");
    // The typed client's connect call goes through the same path.
    // (Typed as string, but client-node parses a JSON answer.)
    const answer: unknown = await admin.core.connectGetNamespacedServiceProxyWithPath({
      namespace: "proxy",
      name: "prometheus:9090",
      path: "metrics",
    });
    expect(typeof answer === "string" ? JSON.parse(answer) : answer).toMatchObject({ method: "GET", url: "/metrics" });
  });

  it("answers 503 without a target or with the target down, 404 without the Service, 403 without services/proxy", async () => {
    const noTarget = await proxied("idle:80/proxy/", "admin-token");
    expect(noTarget.status).toBe(503);
    expect(((await noTarget.json()) as StatusBody).message).toBe('no endpoints available for service "idle"');
    expect((await proxied("missing:80/proxy/", "admin-token")).status).toBe(404);
    expect((await proxied("prometheus:9090/proxy/", "bob-token")).status).toBe(403);

    const down = http.createServer();
    await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
    const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
    await new Promise((resolve) => down.close(resolve));
    store.create(services, "proxy", {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "down", annotations: { "sim.rollscope.dev/proxy-target": downUrl } },
    });
    const refused = await proxied("down/proxy/x", "admin-token");
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as StatusBody).message).toMatch(/^error trying to reach service: .*ECONNREFUSED/);
  });
});
