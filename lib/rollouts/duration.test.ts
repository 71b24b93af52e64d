import { describe, expect, it } from "vitest";
import { formatDurationSeconds, parseDurationSeconds } from "./duration";

describe("parseDurationSeconds", () => {
  it.each([
    [300, 300],
    ["300", 300],
    ["30s", 30],
    ["5m", 300],
    ["1h", 3600],
    ["1h30m", 5400],
    ["1h30m15s", 5415],
    ["1.5h", 5400],
    ["90s", 90],
    ["1500ms", 1],
    ["500ms", 0],
    ["0", 0],
  ] as const)("%j → %d s", (input, seconds) => {
    expect(parseDurationSeconds(input)).toBe(seconds);
  });

  it.each(["", "5 minutes", "m5", "1d", "1h30", "abc"])("rejects %j", (input) => {
    expect(parseDurationSeconds(input)).toBeNull();
  });

  it("returns null when there is no duration", () => {
    expect(parseDurationSeconds(undefined)).toBeNull();
  });
});

describe("formatDurationSeconds", () => {
  it.each([
    [0, "0s"],
    [45, "45s"],
    [300, "5m"],
    [3600, "1h"],
    [5400, "1h30m"],
    [3605, "1h5s"],
  ])("%d s → %s", (seconds, text) => {
    expect(formatDurationSeconds(seconds)).toBe(text);
  });
});
