import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiServerHandle, startApiServer } from "@/sim/apiserver";
import { writeKubeconfig } from "@/sim/kubeconfig";
import { findResourceType } from "@/sim/resources";
import { type KubeObject, ObjectStore } from "@/sim/store/object-store";

const KUBECTL = "/usr/bin/kubectl";
const hasKubectl = existsSync(KUBECTL);
if (!hasKubectl) console.warn(`kubectl tests skipped: ${KUBECTL} is not installed`);

const rollouts = findResourceType("argoproj.io", "v1alpha1", "rollouts")!;

function rollout(name: string, namespace: string, replicas = 2): KubeObject {
  return { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", metadata: { name, namespace }, spec: { replicas } };
}

const ROLLOUT_YAML = (replicas: number) => `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
  namespace: kc-apply
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: "nginx:1.27"}]}
  strategy: {canary: {steps: [{setWeight: 20}, {pause: {}}]}}
`;

describe.skipIf(!hasKubectl)("real kubectl against the simulated API server", () => {
  let dir: string;
  let store: ObjectStore;
  let server: ApiServerHandle;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "rollscope-kubectl-"));
    store = new ObjectStore();
    server = await startApiServer({
      store,
      users: [
        { name: "admin", token: "admin-token", groups: ["system:masters"] },
        { name: "viewer", token: "viewer-token", groups: [] },
      ],
      rbac: [
        {
          subjects: [{ kind: "User", name: "viewer" }],
          rules: [{ verbs: ["get", "list", "watch"], apiGroups: ["argoproj.io"], resources: ["rollouts"] }],
        },
      ],
    });
    writeKubeconfig(path.join(dir, "admin.yaml"), [{ name: "sim", server: server.url, token: "admin-token" }]);
    writeKubeconfig(path.join(dir, "viewer.yaml"), [{ name: "sim", server: server.url, token: "viewer-token" }]);
    for (const ns of ["kc-a", "kc-b", "kc-apply", "kc-patch"]) store.ensureNamespace(ns);
    store.create(rollouts, "kc-a", rollout("checkout", "kc-a", 3));
    store.create(rollouts, "kc-a", rollout("cart", "kc-a"));
    store.create(rollouts, "kc-b", rollout("search", "kc-b"));
  });

  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const args = (user: string, rest: string[]) => [
    "--kubeconfig",
    path.join(dir, `${user}.yaml`),
    "--cache-dir",
    path.join(dir, "cache"),
    ...rest,
  ];

  function kubectl(
    rest: string[],
    opts: { user?: string; input?: string } = {},
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = execFile(KUBECTL, args(opts.user ?? "admin", rest), { timeout: 15_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
      });
      if (opts.input !== undefined) child.stdin!.end(opts.input);
    });
  }

  it("get rollouts -A -o json returns what the store holds", async () => {
    const res = await kubectl(["get", "rollouts", "-A", "-o", "json"]);
    expect(res.stderr).toBe("");
    const list = JSON.parse(res.stdout) as { items: KubeObject[] };
    const expected = store.list(rollouts).items;
    expect(list.items.map((r) => [r.metadata.namespace, r.metadata.name, r.metadata.resourceVersion])).toEqual(
      expected.map((r) => [r.metadata.namespace, r.metadata.name, r.metadata.resourceVersion]),
    );
    expect(list.items.find((r) => r.metadata.name === "checkout")?.spec).toEqual({ replicas: 3 });
  });

  it("get ro -n prints the server's Table with the Rollout printer columns", async () => {
    const res = await kubectl(["get", "ro", "-n", "kc-a"]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    expect(lines[0].split(/\s+/)).toEqual(["NAME", "DESIRED", "CURRENT", "UP-TO-DATE", "AVAILABLE", "AGE"]);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ["cart", "2"],
      ["checkout", "3"],
    ]);
  });

  it("get -w prints a change made after it started", async () => {
    const child = spawn(KUBECTL, args("admin", ["get", "ro", "-n", "kc-b", "-w", "--output-watch-events"]));
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    try {
      await vi.waitFor(() => expect(out).toContain("search"), { timeout: 10_000 });
      store.patch(rollouts, "kc-b", "search", "merge", { spec: { replicas: 7 } });
      await vi.waitFor(() => expect(out).toMatch(/MODIFIED\s+search\s+7/), { timeout: 10_000 });
    } finally {
      child.kill();
    }
  });

  it("create -f and apply -f (twice) a Rollout", async () => {
    const file = path.join(dir, "rollout.yaml");
    writeFileSync(file, ROLLOUT_YAML(2));
    const created = await kubectl(["create", "-f", file]);
    expect(created.stdout.trim()).toBe("rollout.argoproj.io/web created");
    expect(store.get(rollouts, "kc-apply", "web").spec).toMatchObject({ replicas: 2 });
    expect((await kubectl(["create", "-f", file])).stderr).toContain("Error from server (AlreadyExists): error when creating");

    store.delete(rollouts, "kc-apply", "web");
    const applied = await kubectl(["apply", "-f", "-"], { input: ROLLOUT_YAML(2) });
    expect(applied.stdout.trim()).toBe("rollout.argoproj.io/web created");
    const reapplied = await kubectl(["apply", "-f", "-"], { input: ROLLOUT_YAML(5) });
    expect(reapplied.stdout.trim()).toBe("rollout.argoproj.io/web configured");
    const web = store.get(rollouts, "kc-apply", "web");
    expect(web.spec).toMatchObject({ replicas: 5 });
    expect(web.metadata.generation).toBe(2);
    expect(web.metadata.annotations?.["kubectl.kubernetes.io/last-applied-configuration"]).toContain('"replicas":5');
  });

  it("patch --subresource status and --type json, and scale", async () => {
    store.create(rollouts, "kc-patch", rollout("pay", "kc-patch"));
    const status = await kubectl([
      "patch",
      "ro",
      "pay",
      "-n",
      "kc-patch",
      "--type",
      "merge",
      "-p",
      '{"status":{"phase":"Paused","abort":true}}',
      "--subresource",
      "status",
    ]);
    expect(status.stdout.trim()).toBe("rollout.argoproj.io/pay patched");
    expect(store.get(rollouts, "kc-patch", "pay").status).toEqual({ phase: "Paused", abort: true });

    const json = await kubectl([
      "patch",
      "ro",
      "pay",
      "-n",
      "kc-patch",
      "--type",
      "json",
      "-p",
      '[{"op":"add","path":"/spec/paused","value":true}]',
    ]);
    expect(json.stdout.trim()).toBe("rollout.argoproj.io/pay patched");
    expect(store.get(rollouts, "kc-patch", "pay").spec).toEqual({ replicas: 2, paused: true });

    const scaled = await kubectl(["scale", "ro", "pay", "-n", "kc-patch", "--replicas", "4"]);
    expect(scaled.stdout.trim()).toBe("rollout.argoproj.io/pay scaled");
    expect(store.get(rollouts, "kc-patch", "pay").spec).toEqual({ replicas: 4, paused: true });
  });

  it("create configmap/namespace and auth can-i, which kubectl sends as protobuf", async () => {
    expect((await kubectl(["create", "namespace", "kc-proto"])).stdout.trim()).toBe("namespace/kc-proto created");
    expect((await kubectl(["get", "ns", "kc-proto", "--no-headers"])).stdout).toMatch(/^kc-proto\s+Active\s/);
    const cm = await kubectl([
      "create",
      "configmap",
      "flags",
      "-n",
      "kc-proto",
      "--from-literal",
      "canary=on",
      "--from-literal",
      "weight=20",
    ]);
    expect(cm.stdout.trim()).toBe("configmap/flags created");
    expect(store.get(findResourceType("", "v1", "configmaps")!, "kc-proto", "flags").data).toEqual({ canary: "on", weight: "20" });

    expect((await kubectl(["auth", "can-i", "list", "rollouts", "-A"], { user: "viewer" })).stdout.trim()).toBe("yes");
    const no = await kubectl(["auth", "can-i", "patch", "rollouts", "--subresource", "status", "-n", "kc-a"], { user: "viewer" });
    expect(no.stdout.trim()).toBe("no");
    expect(
      (await kubectl(["auth", "can-i", "patch", "rollouts", "--subresource", "status", "-n", "kc-a", "--as", "viewer"])).stdout.trim(),
    ).toBe("no");
  });

  it("shows RBAC denials as a real cluster does", async () => {
    expect((await kubectl(["get", "ro", "-A"], { user: "viewer" })).code).toBe(0);
    const denied = await kubectl(["patch", "ro", "checkout", "-n", "kc-a", "--type", "merge", "-p", '{"spec":{"paused":true}}'], {
      user: "viewer",
    });
    expect(denied.code).not.toBe(0);
    expect(denied.stderr.trim()).toBe(
      'Error from server (Forbidden): rollouts.argoproj.io "checkout" is forbidden: User "viewer" cannot patch resource "rollouts" in API group "argoproj.io" in the namespace "kc-a"',
    );
  });
});
