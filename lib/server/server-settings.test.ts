import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config/load-config";
import { isAllowedHost } from "@/lib/net/host-check";
import { createServerSettings, describeAllowedHosts } from "./server-settings";

const CLUSTERS = "clusters: [{name: prod, kubeconfig: {context: prod}}]\n";
const settingsFor = (yaml: string, env: Record<string, string> = {}) =>
  createServerSettings(parseConfig(CLUSTERS + yaml, "rollscope.yaml"), env);

describe("allowed hosts", () => {
  it("are the loopback names by default", () => {
    const settings = settingsFor("");
    expect(describeAllowedHosts(settings)).toBe("localhost, 127.0.0.1, [::1]");
    expect(isAllowedHost("rebind.evil.example:3000", settings.allowedHosts)).toBe(false);
  });

  it("always include the public URL's host", () => {
    const settings = settingsFor("auth: {mode: proxy, baseUrl: 'https://rollscope.example.com', proxy: {trustedProxies: [10.0.0.0/8]}}");
    expect(isAllowedHost("rollscope.example.com", settings.allowedHosts)).toBe(true);
    expect(isAllowedHost("localhost:3000", settings.allowedHosts)).toBe(true);
  });

  it("server.allowedHosts replaces the loopback names; ROLLSCOPE_ALLOWED_HOSTS replaces both", () => {
    const configured = settingsFor("server: {allowedHosts: [rollscope.internal]}");
    expect(describeAllowedHosts(configured)).toBe("rollscope.internal");
    const fromEnv = settingsFor("server: {allowedHosts: [rollscope.internal]}", { ROLLSCOPE_ALLOWED_HOSTS: "a.example, b.example:8443" });
    expect(describeAllowedHosts(fromEnv)).toBe("a.example, b.example:8443");
  });

  it("include a specific listen address, never a wildcard", () => {
    expect(describeAllowedHosts(settingsFor("", { ROLLSCOPE_LISTEN: "192.0.2.10" }))).toBe("localhost, 127.0.0.1, [::1], 192.0.2.10");
    expect(describeAllowedHosts(settingsFor("server: {listen: 'fd00::5'}"))).toBe("localhost, 127.0.0.1, [::1], [fd00::5]");
    expect(describeAllowedHosts(settingsFor("", { ROLLSCOPE_LISTEN: "0.0.0.0" }))).toBe("localhost, 127.0.0.1, [::1]");
  });

  it("refuse a bad ROLLSCOPE_ALLOWED_HOSTS entry by name", () => {
    expect(() => settingsFor("", { ROLLSCOPE_ALLOWED_HOSTS: "https://x.example/" })).toThrow(
      /ROLLSCOPE_ALLOWED_HOSTS: "https:\/\/x.example\/"/,
    );
  });

  it("a bad server.allowedHosts entry is a configuration error naming the field", () => {
    expect(() => settingsFor("server: {allowedHosts: ['*.example.com']}")).toThrow(/server\.allowedHosts\.0: must be a host name/);
  });
});
