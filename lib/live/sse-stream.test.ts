import { describe, expect, it } from "vitest";
import type { Fleet, FleetListener } from "@/lib/fleet/fleet";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { buildFleetRollout } from "@/lib/fleet/cluster-watcher";
import { readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { DeltaLog } from "./delta-log";
import { createFleetEventStream } from "./sse-stream";

const FIXTURE = "aborted";

/** A fleet double: what DeltaLog reads (rows, cluster states) and a way to emit changes. */
function fakeFleet() {
  const listeners = new Set<FleetListener>();
  const fleet = {
    rollouts: () => [] as FleetRollout[],
    clusterStates: () => [],
    subscribe: (l: FleetListener) => (listeners.add(l), () => listeners.delete(l)),
  } as unknown as Fleet;
  const upsert = (name: string, weight: number) => {
    const obj = structuredClone(readRolloutFixture(FIXTURE)) as { metadata: Record<string, unknown> };
    obj.metadata = { ...obj.metadata, name, namespace: "shop", resourceVersion: String(weight) };
    const rollout = buildFleetRollout("prod", obj, new Date());
    for (const l of listeners) l({ type: "upsert", rollout });
  };
  const remove = (name: string) => {
    for (const l of listeners) l({ type: "delete", key: `prod/shop/${name}`, cluster: "prod" });
  };
  return { fleet, upsert, remove };
}

async function readFrames(stream: ReadableStream<Uint8Array>, count: number): Promise<Array<{ id: string; event: string; data: unknown }>> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const frames: Array<{ id: string; event: string; data: unknown }> = [];
  while (frames.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
    let end: number;
    while ((end = text.indexOf("\n\n")) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const field = (name: string) =>
        block
          .split("\n")
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? "";
      if (!block.startsWith(":")) frames.push({ id: field("id"), event: field("event"), data: JSON.parse(field("data")) });
    }
  }
  reader.releaseLock();
  return frames;
}

describe("createFleetEventStream", () => {
  it("starts with a snapshot of cluster states and then carries every change with its sequence number", async () => {
    const { fleet, upsert } = fakeFleet();
    const log = new DeltaLog(fleet);
    upsert("checkout", 10);
    const stream = createFleetEventStream(log, { resumeFrom: null, signal: new AbortController().signal });
    setTimeout(() => upsert("checkout", 20), 10);
    const [snapshot, delta] = await readFrames(stream, 2);
    expect(snapshot).toMatchObject({ id: "1", event: "snapshot", data: { clusters: [], seq: 1 } });
    expect(delta).toMatchObject({
      id: "2",
      event: "delta",
      data: { type: "upsert", rollout: { key: "prod/shop/checkout", resourceVersion: "20" } },
    });
    expect(log.rows().map((r) => r.resourceVersion)).toEqual(["20"]);
  });

  it("resumes after Last-Event-ID with exactly the missed changes", async () => {
    const { fleet, upsert } = fakeFleet();
    const log = new DeltaLog(fleet);
    for (const w of [10, 20, 30]) upsert("checkout", w);
    const frames = await readFrames(createFleetEventStream(log, { resumeFrom: 1, signal: new AbortController().signal }), 2);
    expect(frames.map((f) => [f.event, f.id])).toEqual([
      ["delta", "2"],
      ["delta", "3"],
    ]);
  });

  it("disconnects a client that stops reading instead of buffering the fleet for it", async () => {
    const { fleet, upsert } = fakeFleet();
    const log = new DeltaLog(fleet);
    const stream = createFleetEventStream(log, { resumeFrom: null, signal: new AbortController().signal, maxUnreadBytes: 4_096 });
    for (let i = 0; i < 400; i++) {
      upsert(`r${i}`, i);
      await new Promise((r) => setImmediate(r));
    }
    const reader = stream.getReader();
    await expect(async () => {
      for (;;) if ((await reader.read()).done) return;
    }).rejects.toThrow(/stopped reading/);
  });

  it("follows a focused Rollout with its whole view: when the stream opens and after each of its changes, not others'", async () => {
    const { fleet, upsert } = fakeFleet();
    const log = new DeltaLog(fleet);
    upsert("checkout", 10);
    const views: string[] = [];
    const stream = createFleetEventStream(log, {
      resumeFrom: null,
      signal: new AbortController().signal,
      focus: new Set(["prod/shop/checkout"]),
      focusedView: (key) => (views.push(key), { key, version: log.rows().find((r) => r.key === key)?.resourceVersion }),
    });
    setTimeout(() => {
      upsert("cart", 11);
      upsert("checkout", 20);
    }, 10);
    const frames = await readFrames(stream, 5);
    expect(frames.map((f) => [f.event, f.id])).toEqual([
      ["snapshot", "1"],
      ["rollout", "1"],
      ["delta", "2"],
      ["delta", "3"],
      ["rollout", "3"],
    ]);
    expect(frames[1].data).toEqual({ key: "prod/shop/checkout", version: "10" });
    expect(frames[4].data).toEqual({ key: "prod/shop/checkout", version: "20" });
    expect(views).toEqual(["prod/shop/checkout", "prod/shop/checkout"]);
  });

  it("sends a client only the deltas it may see, and no focused view a hidden change would trigger", async () => {
    const { fleet, upsert } = fakeFleet();
    const log = new DeltaLog(fleet);
    upsert("checkout", 10);
    const closed: string[] = [];
    const abort = new AbortController();
    const stream = createFleetEventStream(log, {
      resumeFrom: null,
      signal: abort.signal,
      focus: new Set(["prod/shop/cart"]),
      focusedView: (key) => ({ key, hidden: true }),
      visibleDelta: (delta) => (delta.type === "upsert" && delta.rollout.name === "cart" ? null : delta),
      snapshot: () => ({ clusters: [], seq: -1 }),
      onClose: () => closed.push("closed"),
      positionIntervalMs: 60_000,
    });
    setTimeout(() => {
      upsert("cart", 11);
      setImmediate(() => upsert("checkout", 20));
    }, 10);
    const frames = await readFrames(stream, 3);
    expect(frames.map((f) => [f.event, f.id])).toEqual([
      ["snapshot", "1"],
      ["rollout", "1"],
      ["delta", "3"],
    ]);
    expect(frames[0].data).toEqual({ clusters: [], seq: -1 });
    abort.abort();
    expect(closed).toEqual(["closed"]);
    // Resuming skips the hidden delta too.
    const resumed = await readFrames(
      createFleetEventStream(log, {
        resumeFrom: 1,
        signal: new AbortController().signal,
        visibleDelta: (d) => (d.type === "upsert" && d.rollout.name === "cart" ? null : d),
      }),
      1,
    );
    expect(resumed.map((f) => [f.event, f.id])).toEqual([["delta", "3"]]);
  });

  it("carries only the rows the client holds and its focused Rollouts, and says how far it has come while nothing is sent", async () => {
    const { fleet, upsert, remove } = fakeFleet();
    const log = new DeltaLog(fleet);
    upsert("checkout", 10);
    const stream = createFleetEventStream(log, {
      resumeFrom: null,
      signal: new AbortController().signal,
      focus: new Set(["prod/shop/checkout"]),
      focusedView: (key) => ({ key }),
      carriesRow: () => false,
      positionIntervalMs: 0,
    });
    setTimeout(() => {
      upsert("cart", 11);
      setImmediate(() => {
        remove("cart");
        setImmediate(() => upsert("checkout", 20));
      });
    }, 10);
    const frames = await readFrames(stream, 5);
    expect(frames.map((f) => [f.event, f.id])).toEqual([
      ["snapshot", "1"],
      ["rollout", "1"],
      // cart's upsert and deletion are not this client's rows: only the position they brought the stream to.
      ["position", "2"],
      ["position", "3"],
      ["delta", "4"],
    ]);
    // Resuming: the missed deltas of its rows, or where the stream stands when none of them is.
    const resumed = await readFrames(
      createFleetEventStream(log, { resumeFrom: 1, signal: new AbortController().signal, carriesRow: (d) => d.type === "delete" }),
      1,
    );
    expect(resumed.map((f) => [f.event, f.id])).toEqual([["delta", "3"]]);
    const none = await readFrames(
      createFleetEventStream(log, { resumeFrom: 1, signal: new AbortController().signal, carriesRow: () => false }),
      1,
    );
    expect(none.map((f) => [f.event, f.id, f.data])).toEqual([["position", "4", 4]]);
  });

  it("counts each cluster's Rollouts per namespace as they come and go", () => {
    const { fleet, upsert, remove } = fakeFleet();
    const log = new DeltaLog(fleet);
    upsert("checkout", 1);
    upsert("checkout", 2);
    upsert("cart", 3);
    expect([...log.namespaceCounts("prod")]).toEqual([["shop", 2]]);
    remove("cart");
    remove("cart");
    expect([...log.namespaceCounts("prod")]).toEqual([["shop", 1]]);
    remove("checkout");
    expect(log.namespaceCounts("prod").size).toBe(0);
    expect(log.namespaceCounts("elsewhere").size).toBe(0);
  });
});
