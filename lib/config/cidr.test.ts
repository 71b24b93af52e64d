import { describe, expect, it } from "vitest";
import { cidrContains, parseCidr, parseIpAddress } from "./cidr";

function contains(range: string, address: string): boolean {
  const cidr = parseCidr(range);
  const ip = parseIpAddress(address);
  if (!cidr || ip === undefined) throw new Error(`bad input ${range} ${address}`);
  return cidrContains(cidr, ip);
}

describe("CIDR matching", () => {
  it("matches IPv4 ranges and single addresses", () => {
    expect(contains("10.0.0.0/8", "10.20.30.40")).toBe(true);
    expect(contains("10.0.0.0/8", "11.0.0.1")).toBe(false);
    expect(contains("127.0.0.2", "127.0.0.2")).toBe(true);
    expect(contains("127.0.0.2/32", "127.0.0.1")).toBe(false);
    expect(contains("0.0.0.0/0", "203.0.113.9")).toBe(true);
  });

  it("treats IPv4-mapped IPv6 peers (::ffff:a.b.c.d, as Node reports them) as IPv4", () => {
    expect(contains("127.0.0.0/8", "::ffff:127.0.0.1")).toBe(true);
    expect(contains("192.168.1.0/24", "::FFFF:192.168.1.7")).toBe(true);
  });

  it("matches IPv6 ranges, with :: compression and zone ids", () => {
    expect(contains("fd00::/8", "fd12:3456::1")).toBe(true);
    expect(contains("fd00::/8", "fe80::1")).toBe(false);
    expect(contains("::1", "::1")).toBe(true);
    expect(contains("fe80::/10", "fe80::1%eth0")).toBe(true);
    expect(contains("2001:db8::/32", "2001:db8:0:0:0:0:0:1")).toBe(true);
  });

  it("rejects what is not an address or range", () => {
    for (const bad of [
      "",
      "10.0.0.0/33",
      "10.0.0",
      "256.1.1.1",
      "01.2.3.4",
      "fd00::/129",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "10.0.0.0/8/1",
      "host.example",
      "10.0.0.0/-1",
    ]) {
      expect(parseCidr(bad), bad).toBeUndefined();
    }
  });
});
