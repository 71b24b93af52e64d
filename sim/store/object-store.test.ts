import { describe, expect, it } from "vitest";
import { findResourceType } from "../resources";
import { ObjectStore, StoreError, type KubeObject, type StoreEvent } from "./object-store";

const rollouts = findResourceType("argoproj.io", "v1alpha1", "rollouts")!;
const configmaps = findResourceType("", "v1", "configmaps")!;

function rollout(name: string, weight = 10): KubeObject {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name, namespace: "default", labels: { app: name } },
    spec: { strategy: { canary: { steps: [{ setWeight: weight }] } } },
    status: { phase: "Healthy" },
  };
}

function errorOf(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error("expected a StoreError");
}

describe("ObjectStore", () => {
  it("drops status on create and ignores it on main-resource writes of types with a status subresource", () => {
    const store = new ObjectStore();
    const created = store.create(rollouts, "default", rollout("a"));
    expect(created.status).toBeUndefined();
    store.patch(rollouts, "default", "a", "merge", { status: { phase: "Degraded" } }, { subresource: "status" });
    const afterMain = store.patch(rollouts, "default", "a", "merge", { status: { phase: "Healthy" }, metadata: { labels: { x: "y" } } });
    expect(afterMain.status).toEqual({ phase: "Degraded" });
    expect(afterMain.metadata.labels).toEqual({ app: "a", x: "y" });
  });

  it("ignores everything but status on /status and bumps generation on spec changes only", () => {
    const store = new ObjectStore();
    store.create(rollouts, "default", rollout("a"));
    const s = store.patch(
      rollouts,
      "default",
      "a",
      "merge",
      { spec: { paused: true }, status: { abort: true } },
      { subresource: "status" },
    );
    expect(s.spec).toEqual({ strategy: { canary: { steps: [{ setWeight: 10 }] } } });
    expect(s.metadata.generation).toBe(1);
    const labelled = store.patch(rollouts, "default", "a", "merge", { metadata: { labels: { b: "c" } } });
    expect(labelled.metadata.generation).toBe(1);
    const paused = store.patch(rollouts, "default", "a", "merge", { spec: { paused: true } });
    expect(paused.metadata.generation).toBe(2);
  });

  it("refuses a PUT with a stale resourceVersion with 409 and a not-found name with 404", () => {
    const store = new ObjectStore();
    const created = store.create(rollouts, "default", rollout("a"));
    store.patch(rollouts, "default", "a", "merge", { spec: { paused: true } });
    const conflict = errorOf(() => store.replace(rollouts, "default", "a", structuredClone(created)));
    expect(conflict.code).toBe(409);
    expect(conflict.message).toContain('rollouts.argoproj.io "a": the object has been modified');
    expect(errorOf(() => store.get(rollouts, "default", "nope")).code).toBe(404);
    expect(errorOf(() => store.create(rollouts, "default", rollout("a"))).reason).toBe("AlreadyExists");
    expect(errorOf(() => store.create(rollouts, "missing-ns", { ...rollout("b"), metadata: { name: "b" } })).message).toBe(
      'namespaces "missing-ns" not found',
    );
  });

  it("applies JSON patch and rejects one that does not apply", () => {
    const store = new ObjectStore();
    store.create(rollouts, "default", rollout("a"));
    const patched = store.patch(rollouts, "default", "a", "json", [
      { op: "replace", path: "/spec/strategy/canary/steps/0/setWeight", value: 40 },
    ]);
    expect(patched.spec).toEqual({ strategy: { canary: { steps: [{ setWeight: 40 }] } } });
    expect(errorOf(() => store.patch(rollouts, "default", "a", "json", [{ op: "remove", path: "/spec/nothing" }])).code).toBe(422);
  });

  it("lists with selectors and pages with limit/continue", () => {
    const store = new ObjectStore();
    for (const name of ["a", "b", "c", "d", "e"]) store.create(rollouts, "default", rollout(name));
    expect(store.list(rollouts, { labelSelector: "app in (b,d)" }).items.map((o) => o.metadata.name)).toEqual(["b", "d"]);
    expect(store.list(rollouts, { fieldSelector: "metadata.name!=a" }).items).toHaveLength(4);
    const page1 = store.list(rollouts, { limit: 2 });
    expect(page1.items.map((o) => o.metadata.name)).toEqual(["a", "b"]);
    expect(page1.remainingItemCount).toBe(3);
    const page2 = store.list(rollouts, { limit: 2, continue: page1.continue });
    expect(page2.items.map((o) => o.metadata.name)).toEqual(["c", "d"]);
    const page3 = store.list(rollouts, { limit: 2, continue: page2.continue });
    expect(page3.items.map((o) => o.metadata.name)).toEqual(["e"]);
    expect(page3.continue).toBeUndefined();
  });

  it("resumes a watch from a resourceVersion and answers 410 once the history is compacted", () => {
    const store = new ObjectStore();
    store.create(configmaps, "default", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "one" } });
    const rv = store.resourceVersion;
    store.create(configmaps, "default", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "two" } });
    const seen: StoreEvent[] = [];
    const stop = store.watch(configmaps, { resourceVersion: rv }, (e) => seen.push(e));
    store.delete(configmaps, "default", "one");
    stop();
    expect(seen.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(["ADDED two", "DELETED one"]);
    store.compact();
    expect(errorOf(() => store.watch(configmaps, { resourceVersion: rv }, () => {})).code).toBe(410);
  });

  it("stores a write that changes nothing as no write: same object, no new resourceVersion, no watch event", () => {
    const store = new ObjectStore();
    const created = store.create(rollouts, "default", rollout("a"));
    const events: StoreEvent[] = [];
    store.subscribe((e) => events.push(e));
    // Key order and undefined-valued keys do not make a change (JSON has neither).
    const same = store.update(rollouts, "default", "a", (d) => ({
      ...d,
      spec: { strategy: { canary: { steps: [{ setWeight: 10 }] } }, paused: undefined },
    }));
    expect(same).toBe(created);
    expect(store.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(events).toEqual([]);
  });

  it("keeps the parts a write did not change shared with the version before it (the watch history holds both)", () => {
    const store = new ObjectStore();
    store.create(rollouts, "default", rollout("a"));
    const before = store.patch(
      rollouts,
      "default",
      "a",
      "merge",
      { status: { phase: "Progressing", canary: { weight: 10 } } },
      { subresource: "status" },
    );
    const after = store.update(rollouts, "default", "a", (d) => void ((d.status as { phase: string }).phase = "Healthy"), {
      subresource: "status",
    });
    expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
    expect(after.spec).toBe(before.spec);
    expect(after.metadata.labels).toBe(before.metadata.labels);
    expect((after.status as { canary: unknown }).canary).toBe((before.status as { canary: unknown }).canary);
    expect(after.status).toEqual({ phase: "Healthy", canary: { weight: 10 } });
    expect(Object.isFrozen(after) && Object.isFrozen(after.status)).toBe(true);
    expect(before.status).toEqual({ phase: "Progressing", canary: { weight: 10 } });
  });

  it("bumps generation when a spec key is removed", () => {
    const store = new ObjectStore();
    store.create(rollouts, "default", { ...rollout("a"), extra: { x: 1 } });
    const removed = store.update(rollouts, "default", "a", (d) => void delete d.extra);
    expect(removed.metadata.generation).toBe(2);
    expect(removed.extra).toBeUndefined();
  });
});
