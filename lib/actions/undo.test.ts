import { describe, expect, it } from "vitest";
import type { ReplicaSetResource } from "@/lib/rollouts/workload-schema";
import { decideUndo, isDerivative } from "./undo";

/* Ports of upstream's undo_test.go (v1.9.1) cases on decideUndo, the part of RunUndoRollout after its GET and LIST. */

const UID = "ro-uid";
const template = (image: string, hash?: string) => ({
  metadata: { labels: { app: "demo", ...(hash ? { "rollouts-pod-template-hash": hash } : {}) } },
  spec: { containers: [{ name: "web", image }] },
});
const rollout = (image: string) => ({ metadata: { name: "demo", uid: UID }, spec: { template: template(image) } });

function rs(revision: string, image: string, controlled = true): ReplicaSetResource {
  const hash = `h${revision}`;
  return {
    metadata: {
      name: `demo-${hash}`,
      annotations: { "rollout.argoproj.io/revision": revision },
      ownerReferences: [{ uid: controlled ? UID : "other", controller: true }],
    },
    // What the API server returns: defaults the Rollout's template does not spell out.
    spec: {
      template: {
        ...template(image, hash),
        spec: { containers: [{ name: "web", image, imagePullPolicy: "IfNotPresent" }], restartPolicy: "Always" },
      },
    },
  };
}

const history = [rs("1", "demo:v1"), rs("2", "demo:v2"), rs("3", "demo:v3")];

describe("decideUndo", () => {
  it("defaults to the previous revision and patches /spec/template without the pod-template-hash label (TestUndoCmd)", () => {
    const decision = decideUndo(rollout("demo:v3"), history, 0);
    expect(decision).toMatchObject({ kind: "patch", revision: 2 });
    if (decision.kind !== "patch") return;
    expect(decision.patch).toEqual([
      {
        op: "replace",
        path: "/spec/template",
        value: {
          metadata: { labels: { app: "demo" } },
          spec: { containers: [{ name: "web", image: "demo:v2", imagePullPolicy: "IfNotPresent" }], restartPolicy: "Always" },
        },
      },
    ]);
  });

  it("goes to the revision asked for (TestUndoCmdToRevision)", () => {
    expect(decideUndo(rollout("demo:v3"), history, 1)).toMatchObject({ kind: "patch", revision: 1 });
  });

  it("skips when the template already matches, ignoring defaults the API server added (TestUndoCmdToRevisionSkipCurrent)", () => {
    expect(decideUndo(rollout("demo:v3"), history, 3)).toEqual({
      kind: "skip",
      revision: 3,
      message: "skipped rollback (current template already matches revision 3)",
    });
  });

  it("refuses a revision not in history (TestUndoCmdToRevisionNotFoundError)", () => {
    expect(decideUndo(rollout("demo:v3"), history, 9)).toEqual({
      kind: "error",
      message: "unable to find specified revision 9 in history",
    });
  });

  it("refuses when there is no previous revision, and ignores ReplicaSets the Rollout does not control (TestUndoCmdNoRevisionError)", () => {
    expect(decideUndo(rollout("demo:v1"), [rs("1", "demo:v1"), rs("2", "demo:v2", false)], 0)).toEqual({
      kind: "error",
      message: 'no revision found for rollout "demo"',
    });
  });

  it("refuses a Rollout with a workloadRef (not supported)", () => {
    expect(decideUndo({ ...rollout("demo:v3"), spec: { workloadRef: { kind: "Deployment", name: "d" } } }, history, 0).kind).toBe("error");
  });
});

describe("isDerivative (Semantic.DeepDerivative)", () => {
  it("ignores what the first leaves unset or empty, compares the rest", () => {
    expect(isDerivative({ a: 1, b: "", c: [] }, { a: 1, b: "x", c: [1], d: 2 })).toBe(true);
    expect(isDerivative({ a: [{ x: 1 }] }, { a: [{ x: 1, y: 2 }] })).toBe(true);
    expect(isDerivative({ a: [{ x: 1 }] }, { a: [{ x: 1 }, { x: 2 }] })).toBe(false);
    expect(isDerivative({ a: "v1" }, { a: "v2" })).toBe(false);
  });
});
