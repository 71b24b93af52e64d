import { describe, expect, it } from "vitest";
import { deriveLastWriter } from "./field-manager";

// managedFields as a real API server keeps them on a Rollout applied by Argo CD, aborted with the CLI and then
// reconciled by the controller (fieldsV1 left out: only manager, operation, subresource and time matter here).
const applied = { manager: "argocd-controller", operation: "Apply", apiVersion: "argoproj.io/v1alpha1", time: "2026-12-02T10:00:00Z" };
const controller = {
  manager: "rollouts-controller",
  operation: "Update",
  apiVersion: "argoproj.io/v1alpha1",
  time: "2026-12-02T10:05:00Z",
  subresource: "status",
};
const cli = {
  manager: "kubectl-argo-rollouts",
  operation: "Update",
  apiVersion: "argoproj.io/v1alpha1",
  time: "2026-12-02T10:07:31Z",
  subresource: "status",
};

describe("deriveLastWriter", () => {
  it("names the manager of the newest entry", () => {
    expect(deriveLastWriter([applied, controller])).toBe("rollouts-controller");
    expect(deriveLastWriter([applied, controller, cli])).toBe("kubectl-argo-rollouts");
  });

  it("within one second, credits the writer the controller reacted to", () => {
    expect(deriveLastWriter([cli, { ...controller, time: cli.time }])).toBe("kubectl-argo-rollouts");
    expect(deriveLastWriter([{ ...controller, time: cli.time }, cli])).toBe("kubectl-argo-rollouts");
  });

  it("credits the writer the controller followed up on a few seconds later (a busy controller), not an older one", () => {
    expect(deriveLastWriter([cli, { ...controller, time: "2026-12-02T10:07:34Z" }])).toBe("kubectl-argo-rollouts");
    expect(deriveLastWriter([cli, { ...controller, time: "2026-12-02T10:07:45Z" }])).toBe("rollouts-controller");
    expect(deriveLastWriter([applied, { ...controller, time: "2026-12-02T10:00:02Z" }])).toBe("argocd-controller");
  });

  it("within one second, names another writer before Rollscope itself (whose actions the audit log credits)", () => {
    const rollscope = { ...cli, manager: "rollscope" };
    expect(deriveLastWriter([rollscope, { ...cli, manager: "kubectl-patch" }])).toBe("kubectl-patch");
    expect(deriveLastWriter([{ ...cli, manager: "kubectl-patch" }, rollscope])).toBe("kubectl-patch");
    expect(deriveLastWriter([{ ...cli, manager: "kubectl-patch", time: "2026-12-02T10:07:30Z" }, rollscope])).toBe("rollscope");
  });

  it("is null without managedFields or times", () => {
    expect(deriveLastWriter(undefined)).toBeNull();
    expect(deriveLastWriter([{ manager: "x" }])).toBeNull();
  });
});
