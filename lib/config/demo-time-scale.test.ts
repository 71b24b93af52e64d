import { describe, expect, it } from "vitest";
import { readDemoTimeScale } from "./demo-time-scale";

describe("readDemoTimeScale", () => {
  it("reports a demo running faster than real time, and nothing for real time, real clusters or nonsense", () => {
    expect(readDemoTimeScale({ ROLLSCOPE_DEMO_TIME_SCALE: "30" })).toBe(30);
    expect(readDemoTimeScale({ ROLLSCOPE_DEMO_TIME_SCALE: "1" })).toBeNull();
    expect(readDemoTimeScale({})).toBeNull();
    expect(readDemoTimeScale({ ROLLSCOPE_DEMO_TIME_SCALE: "fast" })).toBeNull();
    expect(readDemoTimeScale({ ROLLSCOPE_DEMO_TIME_SCALE: "-3" })).toBeNull();
  });
});
