import type { KubernetesListObject, KubernetesObject, Watch } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { LeanListWatch } from "./lean-list-watch";

type Handler = (phase: string, obj: KubernetesObject) => void;
type Done = (err: unknown) => void;

const pod = (name: string, resourceVersion: string): KubernetesObject =>
  ({ metadata: { namespace: "shop", name, resourceVersion }, spec: { big: "x".repeat(100) } }) as KubernetesObject;

/** A watch the test drives: each watch() call is one connection, with the query it was opened with. */
function fakeWatch() {
  const connections: Array<{ query: Record<string, unknown>; send: Handler; end: Done }> = [];
  const watch = {
    async watch(_path: string, query: Record<string, unknown>, send: Handler, end: Done) {
      connections.push({ query, send, end });
      return new AbortController();
    },
  } as unknown as Watch;
  return { watch, connections, last: () => connections[connections.length - 1] };
}

/** The watch over a caller that holds what it is given (`skip`: the names it chooses not to hold), by version. */
function setup(lists: Array<KubernetesObject[]>, skip: readonly string[] = [], fail: readonly string[] = []) {
  const fake = fakeWatch();
  const seen: string[] = [];
  const held = new Map<string, string | null>();
  const keyOf = (obj: KubernetesObject) => `${obj.metadata?.namespace ?? ""}/${obj.metadata?.name ?? ""}`;
  let listed = 0;
  const informer = new LeanListWatch<KubernetesObject>({
    path: "/api/v1/pods",
    watch: fake.watch,
    list: async () =>
      ({
        metadata: { resourceVersion: `list-${listed}` },
        items: lists[Math.min(listed++, lists.length - 1)],
      }) as KubernetesListObject<KubernetesObject>,
    held: { versionOf: (key) => held.get(key), keys: () => held.keys() },
    onUpsert: (obj) => {
      if (fail.includes(obj.metadata?.name ?? "")) throw new Error(`cannot read ${obj.metadata?.name}`);
      seen.push(`upsert ${obj.metadata?.name}@${obj.metadata?.resourceVersion}`);
      if (!skip.includes(obj.metadata?.name ?? "")) held.set(keyOf(obj), obj.metadata?.resourceVersion ?? null);
    },
    onDelete: (obj) => {
      seen.push(`delete ${obj.metadata?.name}@${obj.metadata?.resourceVersion}`);
      held.delete(keyOf(obj));
    },
    onError: (err) => seen.push(`error ${String(err)}`),
    onHandlerError: (err, key) => seen.push(`failed ${key}: ${(err as Error).message}`),
  });
  return { informer, fake, seen, held };
}

describe("LeanListWatch", () => {
  it("lists, then watches from the list's version, and reports only changed versions", async () => {
    const { informer, fake, seen } = setup([[pod("a", "1"), pod("b", "2")]]);
    await informer.start();
    expect(fake.last().query.resourceVersion).toBe("list-0");
    fake.last().send("MODIFIED", pod("a", "1"));
    fake.last().send("MODIFIED", pod("a", "3"));
    fake.last().send("DELETED", pod("b", "4"));
    fake.last().send("DELETED", pod("b", "4"));
    expect(seen).toEqual(["upsert a@1", "upsert b@2", "upsert a@3", "delete b@4"]);
  });

  it("resumes a closed watch from the last version, and after 410 Gone relists, reporting what vanished meanwhile as deleted", async () => {
    const { informer, fake, seen } = setup([
      [pod("a", "1"), pod("b", "2")],
      [pod("b", "7"), pod("c", "8")],
    ]);
    await informer.start();
    fake.last().send("MODIFIED", pod("a", "5"));
    fake.last().end(null);
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.last().query.resourceVersion).toBe("5");
    fake.last().end({ statusCode: 410 });
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.last().query.resourceVersion).toBe("list-1");
    expect(seen).toEqual(["upsert a@1", "upsert b@2", "upsert a@5", "delete a@5", "upsert b@7", "upsert c@8"]);
    await informer.stop();
  });

  it("keeps no copy of its own: what the caller does not hold is neither skipped nor reported deleted", async () => {
    const { informer, fake, seen, held } = setup([[pod("a", "1"), pod("x", "2")], [pod("a", "1")]], ["x"]);
    await informer.start();
    fake.last().send("MODIFIED", pod("x", "2"));
    fake.last().send("DELETED", pod("x", "3"));
    expect(seen).toEqual(["upsert a@1", "upsert x@2", "upsert x@2"]);
    fake.last().end({ statusCode: 410 });
    await new Promise((r) => setTimeout(r, 0));
    expect(seen.slice(3)).toEqual([]);
    expect([...held]).toEqual([["shop/a", "1"]]);
  });

  it("goes on past an object its caller cannot take in, naming it, and resumes after it", async () => {
    const { informer, fake, seen } = setup([[pod("a", "1"), pod("bad", "2"), pod("c", "3")]], [], ["bad"]);
    await informer.start();
    fake.last().send("MODIFIED", pod("bad", "4"));
    fake.last().send("MODIFIED", pod("a", "5"));
    fake.last().end(null);
    await Promise.resolve();
    expect(seen).toEqual([
      "upsert a@1",
      "failed shop/bad: cannot read bad",
      "upsert c@3",
      "failed shop/bad: cannot read bad",
      "upsert a@5",
    ]);
    expect(fake.last().query.resourceVersion).toBe("5");
  });

  it("reports other failures without retrying (the caller backs off and starts again)", async () => {
    const { informer, fake, seen } = setup([[pod("a", "1")]]);
    await informer.start();
    const connections = fake.connections.length;
    fake.last().end(new Error("connection reset"));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toContain("error Error: connection reset");
    expect(fake.connections.length).toBe(connections);
  });
});
