import { describe, expect, it } from "vitest";
import { isAllowedHost, isWildcardAddress, LOOPBACK_HOSTS, parseAllowedHost, parseHost } from "./host-check";

const configured = ["rollscope.example.com", "ops.example.com:8443"].map((entry) => parseAllowedHost(entry)!);

describe("isAllowedHost", () => {
  it.each(["localhost:3000", "LOCALHOST:3000", "127.0.0.1:3000", "[::1]:3000", "localhost", "localhost:8080"])(
    "lets loopback names through on any port: %s",
    (host) => {
      expect(isAllowedHost(host, LOOPBACK_HOSTS)).toBe(true);
    },
  );

  it.each([
    ["rebind.evil.example:3000", "a rebinding attacker's name"],
    ["localhost.evil.example", "a name that starts like localhost"],
    ["127.0.0.1.nip.io:3000", "a DNS name that embeds a loopback address"],
    ["evil.example@localhost", "userinfo"],
    ["localhost/x", "a path"],
    ["local host", "a space"],
    ["", "an empty header"],
  ])("refuses %j (%s)", (host) => {
    expect(isAllowedHost(host, LOOPBACK_HOSTS)).toBe(false);
  });

  it("refuses a request without a Host header", () => {
    expect(isAllowedHost(null, LOOPBACK_HOSTS)).toBe(false);
  });

  it("matches configured names on any port, and name:port entries on that port only", () => {
    expect(isAllowedHost("rollscope.example.com", configured)).toBe(true);
    expect(isAllowedHost("Rollscope.Example.com:443", configured)).toBe(true);
    expect(isAllowedHost("ops.example.com:8443", configured)).toBe(true);
    expect(isAllowedHost("ops.example.com", configured)).toBe(false);
    expect(isAllowedHost("example.com", configured)).toBe(false);
  });
});

describe("parsing", () => {
  it("normalises as a browser does", () => {
    expect(parseHost("LocalHost:80")).toStrictEqual({ hostname: "localhost", port: "" });
    expect(parseHost("[::1]:3000")).toStrictEqual({ hostname: "[::1]", port: "3000" });
  });

  it("rejects entries that are not hosts", () => {
    expect(parseAllowedHost("https://rollscope.example.com/")).toBeNull();
    expect(parseAllowedHost("*.example.com")).toBeNull();
  });

  it("knows wildcard listen addresses", () => {
    expect(isWildcardAddress("0.0.0.0")).toBe(true);
    expect(isWildcardAddress("::")).toBe(true);
    expect(isWildcardAddress("192.0.2.10")).toBe(false);
  });
});
