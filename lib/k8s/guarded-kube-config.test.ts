import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { GuardedKubeConfig, KubeCredentialError } from "./guarded-kube-config";

const OUTPUT_SECRET = "exec-output-7f3a9c2e1b";

/** A kubeconfig whose only user gets its credentials from the given command. */
function kubeConfigWithExec(command: string): GuardedKubeConfig {
  const kc = new GuardedKubeConfig();
  kc.loadFromString(
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "c", cluster: { server: "https://127.0.0.1:1" } }],
      users: [
        { name: "sso", user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command, args: [], interactiveMode: "Never" } } },
      ],
      contexts: [{ name: "c", context: { cluster: "c", user: "sso" } }],
      "current-context": "c",
    }),
  );
  return kc;
}

function writeScript(body: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-exec-")), "get-credentials");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function credentialFailure(kc: GuardedKubeConfig): Promise<Error> {
  const failure = await kc.applyToFetchOptions({}).then(
    () => null,
    (err: unknown) => err as Error,
  );
  if (!failure) throw new Error("the credentials were applied");
  return failure;
}

describe("GuardedKubeConfig", () => {
  it("names a failing exec plugin but never passes on what it printed", async () => {
    const failure = await credentialFailure(
      kubeConfigWithExec(writeScript(`echo "refresh failed, cached token ${OUTPUT_SECRET}" >&2; exit 1`)),
    );
    expect(failure).toBeInstanceOf(KubeCredentialError);
    expect(failure.message).toBe(
      'the credential command "get-credentials" of kubeconfig user "sso" failed; its output is not shown, as it may hold credentials',
    );
  });

  it("withholds unparsable plugin output too (the JSON error would quote it)", async () => {
    const failure = await credentialFailure(kubeConfigWithExec(writeScript(`echo "${OUTPUT_SECRET} is not JSON"`)));
    expect(failure.message).toContain("printed no valid ExecCredential");
    expect(failure.message).not.toContain(OUTPUT_SECRET.slice(0, 6));
  });

  it("says when the plugin cannot be run at all", async () => {
    const failure = await credentialFailure(kubeConfigWithExec("/nonexistent/get-credentials"));
    expect(failure.message).toContain('"get-credentials" of kubeconfig user "sso" could not be run (ENOENT)');
  });
});
