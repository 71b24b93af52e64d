import { describe, expect, it } from "vitest";
import { describeClientAddress } from "./client-address";

const proxies = new Set(["10.0.0.5", "10.0.0.6"]);
const trusted = (address: string) => proxies.has(address);

describe("describeClientAddress", () => {
  it("is the peer when the peer is not a trusted proxy, whatever X-Forwarded-For says", () => {
    expect(describeClientAddress("203.0.113.9", "10.0.0.5", trusted)).toBe("203.0.113.9");
  });

  it("takes the right-most entry a trusted proxy appended, not the left-most one the client wrote", () => {
    expect(describeClientAddress("10.0.0.5", "198.51.100.66, 203.0.113.7", trusted)).toBe("203.0.113.7 via 10.0.0.5");
  });

  it("skips trusted proxies from the right", () => {
    expect(describeClientAddress("10.0.0.5", "198.51.100.66, 203.0.113.7, 10.0.0.6", trusted)).toBe("203.0.113.7 via 10.0.0.5");
  });

  it("takes the left-most entry when every hop is a trusted proxy", () => {
    expect(describeClientAddress("10.0.0.5", "10.0.0.6", trusted)).toBe("10.0.0.6 via 10.0.0.5");
  });

  it("records a forwarded entry only as address characters", () => {
    expect(describeClientAddress("10.0.0.5", "<script>alert(1)</script>", trusted)).toBe("scriptalert1script via 10.0.0.5");
    expect(describeClientAddress("10.0.0.5", "\u0007", trusted)).toBe("unknown via 10.0.0.5");
  });

  it("is the peer without X-Forwarded-For, and null without a known peer", () => {
    expect(describeClientAddress("10.0.0.5", null, trusted)).toBe("10.0.0.5");
    expect(describeClientAddress(undefined, "203.0.113.7", trusted)).toBeNull();
  });
});
