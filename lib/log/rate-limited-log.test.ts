import { describe, expect, it } from "vitest";
import { createRateLimitedLog } from "./rate-limited-log";

function logAt() {
  let clock = 0;
  const lines: string[] = [];
  const log = createRateLimitedLog({ intervalMs: 60_000, now: () => clock, write: (line) => lines.push(line) });
  return { log, lines, advance: (ms: number) => (clock += ms) };
}

describe("rate-limited error log", () => {
  it("logs the first error of a key and counts the repeats within the interval", () => {
    const { log, lines, advance } = logAt();
    log.error("scrape prod", "scrape failed: disk full");
    for (let i = 0; i < 59; i++) {
      advance(1_000);
      log.error("scrape prod", "scrape failed: disk full");
    }
    expect(lines).toStrictEqual(["scrape failed: disk full"]);
    advance(1_000);
    log.error("scrape prod", "scrape failed: still full");
    expect(lines).toStrictEqual(["scrape failed: disk full", "scrape failed: still full (59 more like it since the last report)"]);
  });

  it("keeps keys apart", () => {
    const { log, lines } = logAt();
    log.error("watch prod", "prod unreachable");
    log.error("watch staging", "staging unreachable");
    log.error("watch prod", "prod unreachable");
    expect(lines).toStrictEqual(["prod unreachable", "staging unreachable"]);
  });
});
