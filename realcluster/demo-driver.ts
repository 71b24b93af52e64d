import { DEMO_NAMESPACE } from "./manifests";
import { imageFor } from "./demo-workloads";

/** "once": one new revision per demo Rollout once it is Healthy; "loop": a new one whenever it has been Healthy a while. */
export type DemoDriverMode = "once" | "loop";

type Kubectl = (args: string[], input?: string) => Promise<string>;

interface RolloutSummary {
  name: string;
  phase: string;
  revision: number;
}

const LOOP_IDLE_MS = 30_000;
/**
 * Healthy this long before the first new revision: Prometheus (5-s scrapes) then holds each controller counter
 * before the canary moves it, so increase() sees the weight updates (a counter's first sample is its baseline).
 */
const SETTLE_MS = 12_000;
const POLL_MS = 3_000;

async function listRollouts(kubectl: Kubectl): Promise<RolloutSummary[]> {
  const list = JSON.parse(await kubectl(["get", "rollouts.argoproj.io", "-n", DEMO_NAMESPACE, "-o", "json"])) as {
    items: Array<{
      metadata: { name: string };
      spec: { template: { spec: { containers: Array<{ image: string }> } } };
      status?: { phase?: string };
    }>;
  };
  return list.items.map((r) => ({
    name: r.metadata.name,
    phase: r.status?.phase ?? "",
    revision: Number(/:v(\d+)$/.exec(r.spec.template.spec.containers[0]?.image ?? "")?.[1] ?? 1),
  }));
}

/** Starts new revisions of the demo Rollouts (a new image tag), so the real controller has rollouts to run. */
export function startDemoDriver(kubectl: Kubectl, mode: DemoDriverMode, log: (line: string) => void): () => void {
  const healthySince = new Map<string, number>();
  const bumped = new Set<string>();
  let stopped = false;
  const bump = async (r: RolloutSummary) => {
    const patch = [{ op: "replace", path: "/spec/template/spec/containers/0/image", value: imageFor(r.revision + 1) }];
    await kubectl(["patch", "rollouts.argoproj.io", r.name, "-n", DEMO_NAMESPACE, "--type=json", "-p", JSON.stringify(patch)]);
    log(`demo: ${r.name} → ${imageFor(r.revision + 1)}`);
  };
  const tick = async () => {
    for (const r of await listRollouts(kubectl)) {
      if (r.phase !== "Healthy") {
        healthySince.delete(r.name);
        continue;
      }
      const since = healthySince.get(r.name) ?? Date.now();
      healthySince.set(r.name, since);
      const healthyFor = Date.now() - since;
      const due = bumped.has(r.name) ? mode === "loop" && healthyFor >= LOOP_IDLE_MS : healthyFor >= SETTLE_MS;
      if (!due) continue;
      bumped.add(r.name);
      healthySince.delete(r.name);
      await bump(r);
    }
  };
  const loop = async () => {
    while (!stopped) {
      await tick().catch((err: unknown) => {
        if (!stopped) log(`demo driver: ${err instanceof Error ? err.message : String(err)}`);
      });
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
  void loop();
  return () => void (stopped = true);
}
