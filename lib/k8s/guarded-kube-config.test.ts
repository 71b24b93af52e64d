import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { DEFAULT_KUBECONFIG_LIMITS, GuardedKubeConfig, KubeCredentialError, type KubeConfigLimits } from "./guarded-kube-config";

const OUTPUT_SECRET = "exec-output-7f3a9c2e1b";

/** A kubeconfig whose only user gets its credentials from the given command. */
function kubeConfigWithExec(command: string, limits?: KubeConfigLimits): GuardedKubeConfig {
  const kc = new GuardedKubeConfig(limits);
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

  it("stops a plugin that prints without end (100 MB) past the output bound, failing only this cluster's credentials", async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const failure = await credentialFailure(kubeConfigWithExec(writeScript("head -c 100000000 /dev/zero | tr '\\0' x")));
    expect(failure).toBeInstanceOf(KubeCredentialError);
    expect(failure.message).toBe(
      'the credential command "get-credentials" of kubeconfig user "sso" printed more than 1 MiB and was stopped; its output is not shown, as it may hold credentials',
    );
    // What it printed was not kept: the heap grew by far less than the 100 MB on offer.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50 * 1024 * 1024);
  });

  it("stops a plugin that hangs after the time-out, with an error instead of connecting for ever", async () => {
    const limits = { ...DEFAULT_KUBECONFIG_LIMITS, pluginTimeoutMs: 300 };
    const failure = await credentialFailure(kubeConfigWithExec(writeScript("sleep 600"), limits));
    expect(failure.message).toContain('"get-credentials" of kubeconfig user "sso" did not finish within 0.3 s and was stopped');
  });

  it("refuses a CA file over the size bound without reading it, naming the file and its size", async () => {
    const ca = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-ca-")), "ca.crt");
    writeFileSync(ca, Buffer.alloc(5 * 1024 * 1024, "A"));
    const kc = new GuardedKubeConfig();
    kc.loadFromString(
      stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "c", cluster: { server: "https://127.0.0.1:1", "certificate-authority": ca } }],
        users: [{ name: "u", user: { token: "t" } }],
        contexts: [{ name: "c", context: { cluster: "c", user: "u" } }],
        "current-context": "c",
      }),
    );
    const failure = await credentialFailure(kc);
    expect(failure).toBeInstanceOf(KubeCredentialError);
    expect(failure.message).toBe(
      `the kubeconfig's certificate-authority file ${ca} is 5 MiB, more than the 4 MiB such a file may be; it was not read`,
    );
  });
});
