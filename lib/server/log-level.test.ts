import { describe, expect, it } from "vitest";
import { rollscopeConfigSchema } from "@/lib/config/schema";
import { resolveLogLevel } from "./log-level";

const config = (log?: unknown) => rollscopeConfigSchema.parse({ clusters: [{ name: "prod", inCluster: true }], ...(log ? { log } : {}) });

describe("resolveLogLevel", () => {
  it("is info by default, log.level when configured, and ROLLSCOPE_LOG_LEVEL over both", () => {
    expect(resolveLogLevel(config(), {})).toBe("info");
    expect(resolveLogLevel(config({ level: "warn" }), {})).toBe("warn");
    expect(resolveLogLevel(config({ level: "warn" }), { ROLLSCOPE_LOG_LEVEL: "debug" })).toBe("debug");
  });

  it("refuses a level that does not exist, naming the field or variable and the levels there are", () => {
    expect(() => config({ level: "verbose" })).toThrow(/level/);
    expect(() => resolveLogLevel(config(), { ROLLSCOPE_LOG_LEVEL: "verbose" })).toThrow(
      /ROLLSCOPE_LOG_LEVEL: "verbose" is not one of trace, debug, info, warn, error, fatal, silent/,
    );
  });
});
