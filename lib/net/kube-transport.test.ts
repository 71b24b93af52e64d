import https from "node:https";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "@/sim/apiserver/tls-cert";
import { sameTlsOptions } from "./kube-transport";
import { kubeRequest } from "@/lib/k8s/kube-request";

/** An HTTPS API server that answers every request with an empty list and counts the TLS connections it accepts. */
async function countingServer(): Promise<{ url: string; connections: () => number; server: https.Server }> {
  let connections = 0;
  const server = https.createServer(selfSignedCertificate(), (_, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ kind: "List", items: [] }));
  });
  server.on("secureConnection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, server };
}

function kubeConfigFor(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server, skipTLSVerify: true }],
    users: [{ name: "u", token: "t" }],
    contexts: [{ name: "ctx", cluster: "c", user: "u" }],
    currentContext: "ctx",
  });
  return kc;
}

let server: https.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

describe("kubeRequest's connections to an API server", () => {
  it("reuses one TLS connection for a kubeconfig's requests, one after another", async () => {
    const api = await countingServer();
    server = api.server;
    const kc = kubeConfigFor(api.url);
    for (let i = 0; i < 5; i++) await kubeRequest(kc, "/api/v1/namespaces/default/pods");
    expect(api.connections()).toBe(1);
    // Requests at once open connections side by side, which the next requests reuse.
    await Promise.all([1, 2, 3].map(() => kubeRequest(kc, "/api/v1/namespaces/default/pods")));
    const afterBurst = api.connections();
    expect(afterBurst).toBeLessThanOrEqual(3);
    await Promise.all([1, 2, 3].map(() => kubeRequest(kc, "/api/v1/namespaces/default/pods")));
    expect(api.connections()).toBe(afterBurst);
  });

  it("keeps each kubeconfig's connections its own", async () => {
    const api = await countingServer();
    server = api.server;
    const [a, b] = [kubeConfigFor(api.url), kubeConfigFor(api.url)];
    await kubeRequest(a, "/api");
    await kubeRequest(b, "/api");
    await kubeRequest(a, "/api");
    expect(api.connections()).toBe(2);
  });

  it("tells TLS settings apart by content: a rotated client certificate is a new agent, the same one read again is not", () => {
    const cert = "-----BEGIN CERTIFICATE-----\nAAA\n-----END CERTIFICATE-----\n";
    expect(sameTlsOptions({ ca: Buffer.from("ca"), cert, key: "k" }, { ca: Buffer.from("ca"), cert, key: "k" })).toBe(true);
    expect(sameTlsOptions({ ca: [Buffer.from("ca")], cert }, { ca: [Buffer.from("ca")], cert })).toBe(true);
    expect(sameTlsOptions({ ca: Buffer.from("ca"), cert }, { ca: Buffer.from("ca"), cert: cert.replace("AAA", "BBB") })).toBe(false);
    expect(sameTlsOptions({ rejectUnauthorized: false }, { rejectUnauthorized: true })).toBe(false);
    expect(sameTlsOptions({ servername: "a" }, {})).toBe(false);
  });
});
