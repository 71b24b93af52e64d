import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_METER_BUCKETS, PLUGIN_METER_FAMILY, PLUGIN_METER_KINDS, PLUGIN_METER_OUTCOMES } from "./plugin-meter-family";

interface Contract {
  outcomes: string[];
  kinds: string[];
  metrics: Record<"calls" | "duration" | "restarts" | "info", { name: string; type: string; labels: string[]; buckets?: number[] }>;
}

const contract = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../plugin-meter/metrics.json"), "utf8")) as Contract;

describe("Rollscope's reader of the plugin meter's family", () => {
  it("reads exactly the names, outcomes, kinds and buckets the meter's contract declares", () => {
    expect(PLUGIN_METER_FAMILY).toEqual({
      calls: contract.metrics.calls.name,
      duration: contract.metrics.duration.name,
      restarts: contract.metrics.restarts.name,
      info: contract.metrics.info.name,
    });
    expect([...PLUGIN_METER_OUTCOMES]).toEqual(contract.outcomes);
    expect([...PLUGIN_METER_KINDS]).toEqual(contract.kinds);
    expect([...PLUGIN_METER_BUCKETS]).toEqual(contract.metrics.duration.buckets);
  });

  it("groups by the labels the contract gives the calls counter and the latency histogram", () => {
    expect(contract.metrics.calls.labels).toEqual(expect.arrayContaining(["plugin", "method", "outcome"]));
    expect(contract.metrics.duration.labels).toEqual(expect.arrayContaining(["plugin", "method"]));
    expect(contract.metrics.restarts.labels).toEqual(expect.arrayContaining(["plugin"]));
  });
});
