import { describe, expect, it } from "vitest";
import { durationSeconds, formatGoDuration } from "./duration";
import { computePodTemplateHash, computeStepHash, safeEncodeString } from "./hash";
import { Prng } from "./prng";

describe("pod template hash", () => {
  it("is deterministic, key-order independent, safe-encoded and changes with the template or collisionCount", () => {
    const a = computePodTemplateHash({ metadata: { labels: { app: "x" } }, spec: { containers: [{ name: "x", image: "i:1" }] } });
    const b = computePodTemplateHash({ spec: { containers: [{ image: "i:1", name: "x" }] }, metadata: { labels: { app: "x" } } });
    expect(a).toBe(b);
    expect(a).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    expect(computePodTemplateHash({ spec: { containers: [{ name: "x", image: "i:2" }] } })).not.toBe(a);
    expect(computePodTemplateHash({ metadata: { labels: { app: "x" } }, spec: { containers: [{ name: "x", image: "i:1" }] } }, 1)).not.toBe(
      a,
    );
    expect(computeStepHash([{ setWeight: 10 }])).not.toBe(computeStepHash([{ setWeight: 20 }]));
    expect(safeEncodeString("0123")).toBe("4567");
  });
});

describe("durations", () => {
  it("parses like RolloutPause.DurationSeconds and prints like Go", () => {
    expect(durationSeconds("5m")).toBe(300);
    expect(durationSeconds("1h30m")).toBe(5400);
    expect(durationSeconds("90")).toBe(90);
    expect(durationSeconds(45)).toBe(45);
    expect(durationSeconds("soon")).toBeNull();
    expect(durationSeconds(undefined)).toBeNull();
    expect(formatGoDuration(300)).toBe("5m0s");
    expect(formatGoDuration(3661)).toBe("1h1m1s");
  });
});

describe("Prng", () => {
  it("replays for a seed", () => {
    const a = new Prng(42);
    const b = new Prng(42);
    expect([a.next(), a.next(), a.int(1, 6)]).toEqual([b.next(), b.next(), b.int(1, 6)]);
    expect(new Prng("x").next()).not.toBe(new Prng("y").next());
  });
});
