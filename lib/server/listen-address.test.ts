import { describe, expect, it } from "vitest";
import { describeListenAddress, hostnameArgument, resolveListenAddress } from "./listen-address";

describe("resolveListenAddress", () => {
  it("listens on 127.0.0.1 without sign-in unless told otherwise", () => {
    expect(resolveListenAddress({ mode: "none" })).toStrictEqual({ host: "127.0.0.1", source: "default" });
  });

  it("keeps Next's every-interface default with sign-in", () => {
    expect(resolveListenAddress({ mode: "oidc" })).toStrictEqual({ host: null, source: "default" });
  });

  it("takes -H over ROLLSCOPE_LISTEN over server.listen", () => {
    expect(resolveListenAddress({ mode: "none", argument: "::1", env: "0.0.0.0", configured: "10.0.0.1" })).toStrictEqual({
      host: "::1",
      source: "-H",
    });
    expect(resolveListenAddress({ mode: "none", env: " 0.0.0.0 ", configured: "10.0.0.1" })).toStrictEqual({
      host: "0.0.0.0",
      source: "ROLLSCOPE_LISTEN",
    });
    expect(resolveListenAddress({ mode: "none", env: "", configured: "10.0.0.1" })).toStrictEqual({
      host: "10.0.0.1",
      source: "server.listen",
    });
  });
});

describe("hostnameArgument", () => {
  it("finds -H and --hostname in next start's arguments", () => {
    expect(hostnameArgument(["-p", "3000", "-H", "0.0.0.0"])).toBe("0.0.0.0");
    expect(hostnameArgument(["--hostname=::"])).toBe("::");
    expect(hostnameArgument(["-p", "3000"])).toBeUndefined();
  });
});

describe("describeListenAddress", () => {
  it("says loopback only, and how to open it", () => {
    expect(describeListenAddress({ host: "127.0.0.1", source: "default" }, "none")).toMatch(
      /^Rollscope: auth mode none \(no sign-in\): listening on 127\.0\.0\.1 only\. To reach it/,
    );
  });

  it("warns when mode none is opened to the network", () => {
    expect(describeListenAddress({ host: "0.0.0.0", source: "ROLLSCOPE_LISTEN" }, "none")).toBe(
      "Rollscope: auth mode none (no sign-in): listening on 0.0.0.0 (from ROLLSCOPE_LISTEN): anyone on the network who reaches this port can read the fleet and run actions with the kubeconfig's credentials.",
    );
  });

  it("is one plain line with sign-in", () => {
    expect(describeListenAddress({ host: null, source: "default" }, "proxy")).toBe(
      "Rollscope: auth mode proxy: listening on every interface.",
    );
  });
});
