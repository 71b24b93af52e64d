import { describe, expect, it } from "vitest";
import { readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { listTemplateContainers, setRolloutImage } from "./set-image";

/** A real Rollout dump with an init container and a sidecar added, as `set image`'s own tests use several kinds. */
function rolloutWithSidecars(): Record<string, unknown> {
  const raw = structuredClone(readRolloutFixture("indefinite-pause")) as {
    spec: {
      template: { spec: { containers: Array<Record<string, unknown>>; initContainers?: unknown[]; ephemeralContainers?: unknown[] } };
    };
  };
  raw.spec.template.spec.initContainers = [{ name: "migrate", image: "example.com/migrate:1" }];
  raw.spec.template.spec.containers.push({ name: "proxy", image: "envoyproxy/envoy:v1.30" });
  raw.spec.template.spec.ephemeralContainers = [{ name: "debug", image: "busybox" }];
  return raw as unknown as Record<string, unknown>;
}

describe("setRolloutImage (newRolloutSetImage)", () => {
  it("replaces the named container's image and nothing else, the resourceVersion kept for the Update", () => {
    const before = rolloutWithSidecars();
    const main = listTemplateContainers(before as never).find((c) => c.name !== "migrate" && c.name !== "proxy" && c.name !== "debug")!;
    const result = setRolloutImage(before, main.name, "example.com/app:2.0.0");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.containers).toEqual([main.name]);
    expect(result.previous).toEqual([main.image]);
    expect(listTemplateContainers(result.rollout as never).map((c) => c.image)).toEqual([
      "example.com/migrate:1",
      "example.com/app:2.0.0",
      "envoyproxy/envoy:v1.30",
      "busybox",
    ]);
    // The input is left as read, and only the image differs in the copy.
    expect(listTemplateContainers(before as never).map((c) => c.image)).toContain(main.image);
    const strip = (o: Record<string, unknown>) => JSON.stringify(o).replace(/"image":"[^"]*"/g, "");
    expect(strip(result.rollout)).toBe(strip(before));
    expect((result.rollout.metadata as { resourceVersion?: string }).resourceVersion).toBe(
      (before.metadata as { resourceVersion?: string }).resourceVersion,
    );
  });

  it("sets every container, init and ephemeral ones too, for *", () => {
    const result = setRolloutImage(rolloutWithSidecars(), "*", "nginx:1.27");
    expect(result.ok && listTemplateContainers(result.rollout as never).every((c) => c.image === "nginx:1.27")).toBe(true);
    expect(result.ok && result.containers).toHaveLength(4);
  });

  it("refuses a container the template does not have, with upstream's message", () => {
    expect(setRolloutImage(rolloutWithSidecars(), "nope", "nginx")).toEqual({
      ok: false,
      message: 'unable to find container named "nope"',
    });
  });
});
