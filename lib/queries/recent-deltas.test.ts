import { describe, expect, it } from "vitest";
import { makeSummary } from "@/lib/overview/summary.test-helper";
import { RecentDeltas } from "./recent-deltas";

describe("RecentDeltas", () => {
  it("returns the deltas after a sequence number, oldest first", () => {
    const recent = new RecentDeltas();
    const rows = [1, 2, 3].map((i) => makeSummary({ name: `r${i}` }));
    rows.forEach((rollout, i) => recent.record(10 + i, { type: "upsert", rollout }));
    expect(recent.after(10).map((d) => (d.type === "upsert" ? d.rollout.name : ""))).toEqual(["r2", "r3"]);
    expect(recent.after(12)).toEqual([]);
  });

  it("keeps a bounded number of deltas, the newest", () => {
    const recent = new RecentDeltas();
    for (let seq = 1; seq <= 10_000; seq++) recent.record(seq, { type: "delete", key: `k${seq}` });
    const kept = recent.after(0);
    expect(kept.length).toBeLessThanOrEqual(3_000);
    expect(kept.at(-1)).toEqual({ type: "delete", key: "k10000" });
  });

  it("knows the newest sequence number it applied, or the stream's start before any delta", () => {
    const recent = new RecentDeltas();
    recent.reset(40);
    expect(recent.newestSeq()).toBe(40);
    recent.record(41, { type: "delete", key: "a" });
    recent.record(45, { type: "delete", key: "b" });
    expect(recent.newestSeq()).toBe(45);
  });

  it("resumes from where the stream said it stands when no delta of its rows came, and forgets that on a new stream", () => {
    const recent = new RecentDeltas();
    recent.reset(40);
    recent.record(41, { type: "delete", key: "a" });
    recent.advance(90);
    expect(recent.newestSeq()).toBe(90);
    // The deltas it holds stay as they are.
    expect(recent.after(40)).toHaveLength(1);
    recent.record(95, { type: "delete", key: "b" });
    expect(recent.newestSeq()).toBe(95);
    recent.reset(10);
    expect(recent.newestSeq()).toBe(10);
  });
});
