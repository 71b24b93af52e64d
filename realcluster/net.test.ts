import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRangeStart, freePort } from "./net";

describe("freePort", () => {
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
