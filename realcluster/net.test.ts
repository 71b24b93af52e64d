import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ephemeralRangeStart, freePort } from "./net";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("freePort", () => {
  it("never returns a port twice, though the first is still free when the second is chosen", async () => {
    // Every random draw picks the same port: the second call must not hand it out again.
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const first = await freePort();
    const second = await freePort();
    expect(second).not.toBe(first);
  });

  it("picks a free loopback port below the kernel's ephemeral range, where no outgoing connection takes it meanwhile", async () => {
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(ephemeralRangeStart());
      await new Promise<void>((resolve, reject) => {
        const server = createServer().once("error", reject);
        server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
      });
    }
  });

  it("reads the range's first port, 32768 when the file says nothing usable", () => {
    expect(ephemeralRangeStart("40000\t60999\n")).toBe(40_000);
    expect(ephemeralRangeStart("")).toBe(32_768);
    expect(ephemeralRangeStart("garbage")).toBe(32_768);
  });
});
