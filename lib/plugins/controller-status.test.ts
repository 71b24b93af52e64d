import { describe, expect, it } from "vitest";
import { describeControllerStatus, imageVersion } from "./controller-status";

const pod = (
  name: string,
  containerStatus: Record<string, unknown>,
  labels: Record<string, string> = { "app.kubernetes.io/name": "argo-rollouts" },
) => ({
  metadata: { name, labels },
  spec: { nodeName: "kwok-node-0", containers: [{ name: "argo-rollouts", image: "quay.io/argoproj/argo-rollouts:v1.9.1" }] },
  status: {
    phase: "Running",
    startTime: "2026-08-18T09:00:00Z",
    containerStatuses: [{ name: "argo-rollouts", image: "quay.io/argoproj/argo-rollouts:v1.9.1", ...containerStatus }],
  },
});

const running = pod("argo-rollouts-5d9f-abcde", {
  ready: true,
  restartCount: 0,
  state: { running: { startedAt: "2026-08-18T09:00:05Z" } },
});
const crashing = pod("argo-rollouts-5d9f-fghij", { ready: false, restartCount: 4, state: { waiting: { reason: "CrashLoopBackOff" } } });
const dashboard = pod("argo-rollouts-dashboard-1", { ready: true }, { "app.kubernetes.io/name": "argo-rollouts-dashboard" });

describe("imageVersion", () => {
  it("reads the tag, not a registry port, and none from a digest-only image", () => {
    expect(imageVersion("quay.io/argoproj/argo-rollouts:v1.9.1")).toBe("v1.9.1");
    expect(imageVersion("registry.local:5000/argo-rollouts:v1.8.0@sha256:abc")).toBe("v1.8.0");
    expect(imageVersion("registry.local:5000/argo-rollouts@sha256:abc")).toBeNull();
    expect(imageVersion(null)).toBeNull();
  });
});

describe("describeControllerStatus", () => {
  it("shows each controller Pod's state, readiness and restarts, and the version from their image", () => {
    const status = describeControllerStatus({
      namespace: "argo-rollouts",
      pods: [crashing, dashboard, running],
      deployments: null,
      deploymentNote: "Deployments are not served",
    });
    expect(status.pods.map((p) => [p.name, p.state, p.ready, p.restarts, p.node])).toEqual([
      ["argo-rollouts-5d9f-abcde", "Running", true, 0, "kwok-node-0"],
      ["argo-rollouts-5d9f-fghij", "CrashLoopBackOff", false, 4, "kwok-node-0"],
    ]);
    expect(status.pods[0].startedAt).toBe("2026-08-18T09:00:05Z");
    expect(status.version).toBe("v1.9.1");
    expect(status.deployment).toBeNull();
    expect(status.deploymentNote).toBe("Deployments are not served");
  });

  it("prefers the Deployment's image for the version and reports its replicas", () => {
    const deployment = {
      metadata: { name: "argo-rollouts", labels: { "app.kubernetes.io/name": "argo-rollouts" } },
      spec: {
        replicas: 2,
        template: { spec: { containers: [{ name: "argo-rollouts", image: "quay.io/argoproj/argo-rollouts:v1.9.2" }] } },
      },
      status: { readyReplicas: 1, availableReplicas: 1, updatedReplicas: 2 },
    };
    const status = describeControllerStatus({
      namespace: "argo-rollouts",
      pods: [running],
      deployments: [deployment],
      deploymentNote: null,
    });
    expect(status.version).toBe("v1.9.2");
    expect(status.deployment).toEqual({
      name: "argo-rollouts",
      desired: 2,
      ready: 1,
      available: 1,
      updated: 2,
      image: "quay.io/argoproj/argo-rollouts:v1.9.2",
    });
  });

  it("says when the namespace has no controller Deployment", () => {
    const status = describeControllerStatus({ namespace: "argo-rollouts", pods: [], deployments: [], deploymentNote: null });
    expect(status).toEqual({
      namespace: "argo-rollouts",
      version: null,
      deployment: null,
      deploymentNote: "no argo-rollouts Deployment in argo-rollouts",
      pods: [],
    });
  });
});
