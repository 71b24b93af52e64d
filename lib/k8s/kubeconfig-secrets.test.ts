import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { listKubeconfigSecrets } from "./kubeconfig-secrets";

function load(user: Record<string, unknown>, server = "https://127.0.0.1:6443"): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "c", cluster: { server } }],
      users: [{ name: "u", user }],
      contexts: [{ name: "c", context: { cluster: "c", user: "u" } }],
      "current-context": "c",
    }),
  );
  return kc;
}

const secretsOf = (kc: KubeConfig) => listKubeconfigSecrets(kc.getCurrentUser(), kc.getCurrentCluster());

describe("listKubeconfigSecrets", () => {
  it("lists the user's token, password and key data and the server URL's password", () => {
    const kc = load(
      { token: "tok-123456", username: "admin", password: "pw-654321", "client-key-data": "LS0tS0VZ" },
      "https://admin:p%40ss-word@10.0.0.1:6443",
    );
    expect(secretsOf(kc).sort()).toEqual(["LS0tS0VZ", "p@ss-word", "pw-654321", "tok-123456"]);
  });

  it("lists auth-provider secrets and secret-named exec env values, not ordinary settings", () => {
    const kc = load({
      "auth-provider": {
        name: "oidc",
        config: { "client-id": "rollscope", "client-secret": "cs-1", "id-token": "idt-2", "idp-issuer-url": "https://idp" },
      },
    });
    expect(secretsOf(kc).sort()).toEqual(["cs-1", "idt-2"]);
    const exec = load({
      exec: {
        apiVersion: "client.authentication.k8s.io/v1",
        command: "get-token",
        env: [
          { name: "API_KEY", value: "key-3" },
          { name: "AWS_REGION", value: "eu-west-1" },
        ],
      },
    });
    expect(secretsOf(exec)).toEqual(["key-3"]);
  });
});
