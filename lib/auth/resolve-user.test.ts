import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config/load-config";
import { ApiError } from "@/lib/errors/api-error";
import { stampPeerAddress } from "./peer-address";
import { resolveRequestIdentity } from "./resolve-user";
import type { SessionStore } from "./session-store";
import { createAuthSettings } from "./settings";

const CLUSTERS = "clusters: [{name: prod, kubeconfig: {context: prod}}]\n";
const settingsFor = (proxy: string) =>
  createAuthSettings(parseConfig(`${CLUSTERS}auth: {mode: proxy, proxy: {trustedProxies: [10.0.0.0/8]${proxy}}}`, "rollscope.yaml"), {});

/** A request from the trusted proxy at 10.0.0.5 naming `user`, its peer stamped as the request gate stamps it. */
function fromProxy(user: string): Request {
  const incoming = { headers: {} as Record<string, string>, socket: { remoteAddress: "10.0.0.5" } } as unknown as IncomingMessage;
  stampPeerAddress(incoming);
  return new Request("http://localhost/api/session", {
    headers: { ...(incoming.headers as Record<string, string>), "x-forwarded-user": user },
  });
}

const sessions = {} as SessionStore;

describe("proxy user names", () => {
  it("takes a person's name from the trusted proxy", async () => {
    const { user } = await resolveRequestIdentity(fromProxy("alice"), settingsFor(""), sessions);
    expect(user).toMatchObject({ via: "proxy", name: "alice" });
  });

  it("refuses Kubernetes system identities (service accounts, Rollscope's own, components) with 403, saying how to allow one", async () => {
    for (const name of ["system:serviceaccount:rollscope:rollscope", "system:admin", "System:kube-proxy"]) {
      const refused = await resolveRequestIdentity(fromProxy(name), settingsFor(""), sessions).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused, name).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(403);
      expect((refused as ApiError).message).toContain("auth.proxy.allowedSystemUsers");
    }
  });

  it("takes a system identity the configuration lists, and only that one", async () => {
    const settings = settingsFor(", allowedSystemUsers: ['system:serviceaccount:ci:deployer']");
    const { user } = await resolveRequestIdentity(fromProxy("system:serviceaccount:ci:deployer"), settings, sessions);
    expect(user?.name).toBe("system:serviceaccount:ci:deployer");
    await expect(resolveRequestIdentity(fromProxy("system:serviceaccount:ci:other"), settings, sessions)).rejects.toThrow(
      /system identity/,
    );
  });
});
