import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./load-config";

const CLUSTERS = "clusters: [{name: prod, kubeconfig: {context: prod}, label: production}, {name: dev, kubeconfig: {context: dev}}]\n";

function errorOf(yaml: string): string {
  try {
    parseConfig(CLUSTERS + yaml, "rollscope.yaml");
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("auth and authorization configuration", () => {
  it("defaults to no sign-in, impersonation, no role mappings and no audit readers", () => {
    const config = parseConfig(CLUSTERS, "f");
    expect(config.auth).toStrictEqual({ mode: "none", sessionTtlHours: 12 });
    expect(config.authorization).toStrictEqual({
      impersonate: true,
      clusters: {},
      roleMappings: [],
      auditReaders: { users: [], groups: [] },
    });
  });

  it("reads the audit readers and refuses anything but lists of names", () => {
    const config = parseConfig(CLUSTERS + "authorization: {auditReaders: {groups: [sre-leads]}}", "f");
    expect(config.authorization.auditReaders).toStrictEqual({ users: [], groups: ["sre-leads"] });
    expect(errorOf("authorization: {auditReaders: {groups: sre-leads}}")).toContain("authorization.auditReaders.groups");
    expect(errorOf("authorization: {auditReaders: {roles: [auditor]}}")).toContain('Unrecognized key: "roles"');
    expect(errorOf("authorization: {auditReaders: {users: ['']}}")).toContain("authorization.auditReaders.users.0");
  });

  it("fills in proxy header defaults in lower case", () => {
    const config = parseConfig(
      CLUSTERS + "auth: {mode: proxy, proxy: {userHeader: X-Auth-Request-User, trustedProxies: [10.0.0.0/8, 'fd00::/8']}}",
      "f",
    );
    expect(config.auth.proxy).toStrictEqual({
      userHeader: "x-auth-request-user",
      groupsHeader: "x-forwarded-groups",
      trustedProxies: ["10.0.0.0/8", "fd00::/8"],
      allowedSystemUsers: [],
    });
  });

  it("fills in OIDC defaults", () => {
    const config = parseConfig(
      CLUSTERS +
        "auth: {mode: oidc, baseUrl: 'https://rollscope.example.com', oidc: {issuer: 'https://idp.example.com', clientId: rollscope, clientSecretFile: /etc/secret}}",
      "f",
    );
    expect(config.auth.oidc).toMatchObject({
      scopes: ["openid", "profile", "email", "groups"],
      usernameClaim: "email",
      groupsClaim: "groups",
      usernamePrefix: "",
      groupsPrefix: "",
    });
  });

  it("names the field of each mistake", () => {
    expect(errorOf("auth: {mode: proxy}")).toContain("auth.proxy: mode proxy needs proxy.trustedProxies");
    expect(errorOf("auth: {mode: proxy, proxy: {trustedProxies: []}}")).toContain(
      "auth.proxy.trustedProxies: list the auth proxy's addresses",
    );
    expect(errorOf("auth: {mode: proxy, proxy: {trustedProxies: [10.0.0.0/40]}}")).toContain(
      "auth.proxy.trustedProxies.0: must be an IP address or CIDR range",
    );
    expect(errorOf("auth: {mode: oidc}")).toContain("auth.oidc: mode oidc needs oidc.issuer and oidc.clientId");
    expect(errorOf("auth: {mode: oidc, oidc: {issuer: 'https://idp', clientId: x}}")).toContain("auth.baseUrl: mode oidc needs baseUrl");
    expect(errorOf("auth: {mode: oidc, baseUrl: 'https://r', oidc: {issuer: 'https://idp', clientId: x, scopes: [email]}}")).toContain(
      'auth.oidc.scopes: must include "openid"',
    );
    expect(
      errorOf("auth: {mode: oidc, baseUrl: 'https://r', oidc: {issuer: 'https://idp', clientId: x, clientSecret: a, clientSecretFile: b}}"),
    ).toContain("auth.oidc.clientSecretFile: set clientSecret or clientSecretFile, not both");
    expect(errorOf("auth: {sessionSecret: short}")).toContain("auth.sessionSecret: must be at least 32 characters");
    expect(errorOf("auth: {mode: saml}")).toContain("auth.mode");
    expect(errorOf("auth: {mode: none, users: []}")).toContain('Unrecognized key: "users"');
  });

  it("checks cluster names in authorization", () => {
    expect(errorOf("authorization: {clusters: {staging: {impersonate: false}}}")).toContain(
      'authorization.clusters.staging: no cluster named "staging" is configured',
    );
    expect(errorOf("authorization: {roleMappings: [{group: sre, role: operator, clusters: [prod, qa]}]}")).toContain(
      'authorization.roleMappings.0.clusters: no cluster named "qa" is configured',
    );
    expect(errorOf("authorization: {roleMappings: [{group: sre, role: admin}]}")).toContain("authorization.roleMappings.0.role");
    const config = parseConfig(
      CLUSTERS + "authorization: {impersonate: false, clusters: {prod: {impersonate: true}}, roleMappings: [{group: sre, role: operator}]}",
      "f",
    );
    expect(config.authorization.roleMappings).toStrictEqual([{ group: "sre", role: "operator", clusters: ["*"], namespaces: ["*"] }]);
  });
});
