import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";

/** Direct access to a simulated cluster as its admin, for changes a test makes "in the cluster". */
export function adminClient(cluster: string): CustomObjectsApi {
  const kc = new KubeConfig();
  kc.loadFromFile(requireEnv("ROLLSCOPE_E2E_KUBECONFIG"));
  kc.setCurrentContext(`${cluster}-admin`);
  return kc.makeApiClient(CustomObjectsApi);
}

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the specs through playwright.config.ts (global setup)`);
  return value;
}

export async function control(path: string, method: "GET" | "POST" = "POST"): Promise<unknown> {
  const res = await fetch(`${requireEnv("ROLLSCOPE_E2E_CONTROL")}${path}`, { method });
  if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const ROLLOUT = { group: "argoproj.io", version: "v1alpha1", plural: "rollouts" };

/**
 * A Rollout with the given strategy, its first revision promoted (as upstream does at once), then a second revision
 * started, which walks the strategy (canary steps, or a blue-green preview waiting for promotion).
 */
export async function createTestRolloutWithStrategy(
  cluster: string,
  namespace: string,
  name: string,
  strategy: Record<string, unknown>,
): Promise<void> {
  await deleteLeftoverRollout(cluster, namespace, name);
  await adminClient(cluster).createNamespacedCustomObject({
    ...ROLLOUT,
    namespace,
    body: {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "Rollout",
      metadata: { name, namespace },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "app", image: `example.com/${name}:1.0.0` }] } },
        strategy,
      },
    },
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ro = (await adminClient(cluster).getNamespacedCustomObject({ ...ROLLOUT, namespace, name })) as {
      status?: { stableRS?: string };
    };
    if (ro.status?.stableRS) break;
    if (Date.now() > deadline) throw new Error(`${cluster}/${namespace}/${name} never got a stable ReplicaSet`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await setTestRolloutImage(cluster, namespace, name, "2.0.0");
}

function statusCode(err: unknown): number | undefined {
  return (err as { code?: number } | null)?.code;
}

/**
 * Removes a Rollout of this name that an earlier attempt of the same test left (a retry starts with the same
 * names), and waits until the cluster no longer has it.
 */
async function deleteLeftoverRollout(cluster: string, namespace: string, name: string): Promise<void> {
  const client = adminClient(cluster);
  try {
    await client.deleteNamespacedCustomObject({ ...ROLLOUT, namespace, name });
  } catch (err) {
    if (statusCode(err) === 404) return;
    throw err;
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.getNamespacedCustomObject({ ...ROLLOUT, namespace, name });
    } catch (err) {
      if (statusCode(err) === 404) return;
      throw err;
    }
    if (Date.now() > deadline) throw new Error(`${cluster}/${namespace}/${name} left by an earlier attempt is still there`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A canary Rollout routed by the gatewayAPI plugin that waits for a promote at each pause. */
export async function createTestRollout(cluster: string, namespace: string, name: string, steps: unknown[]): Promise<void> {
  await createTestRolloutWithStrategy(cluster, namespace, name, {
    canary: {
      canaryService: `${name}-canary`,
      stableService: `${name}-stable`,
      trafficRouting: { plugins: { "argoproj-labs/gatewayAPI": { httpRoute: name, namespace } } },
      steps,
    },
  });
}

/** `kubectl argo rollouts promote` on an indefinite pause: clear the pause conditions on /status. */
export async function promoteTestRollout(cluster: string, namespace: string, name: string): Promise<void> {
  await adminClient(cluster).patchNamespacedCustomObjectStatus(
    { ...ROLLOUT, namespace, name, body: { status: { pauseConditions: null } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}

async function setTestRolloutImage(cluster: string, namespace: string, name: string, tag: string): Promise<void> {
  await adminClient(cluster).patchNamespacedCustomObject(
    {
      ...ROLLOUT,
      namespace,
      name,
      body: { spec: { template: { spec: { containers: [{ name: "app", image: `example.com/${name}:${tag}` }] } } } },
    },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}

export const TEST_STEPS = [{ setWeight: 20 }, { pause: {} }, { setWeight: 60 }, { pause: {} }, { setWeight: 90 }, { pause: {} }];

/** Waits until the controller has written this canary weight to the Rollout's status; returns when it saw it. */
export async function waitForAppliedWeight(
  cluster: string,
  namespace: string,
  name: string,
  weight: number,
  timeoutMs = 30_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ro = (await adminClient(cluster).getNamespacedCustomObject({ ...ROLLOUT, namespace, name })) as {
      status?: { canary?: { weights?: { canary?: { weight?: number } } } };
    };
    if (ro.status?.canary?.weights?.canary?.weight === weight) return Date.now();
    if (Date.now() > deadline) throw new Error(`${cluster}/${namespace}/${name} never reached canary weight ${weight}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
