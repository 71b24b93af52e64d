import { describe, expect, it } from "vitest";
import { ROLLOUT_ACTIONS, RolloutActionRequest } from "./schema";

describe("RolloutActionRequest", () => {
  it("lists the nine actions", () => {
    expect(ROLLOUT_ACTIONS).toStrictEqual(["promote", "promote-full", "abort", "retry", "pause", "resume", "restart", "undo", "set-image"]);
  });

  it("takes set-image with a container (or *) and an image, and nothing else with them", () => {
    expect(RolloutActionRequest.parse({ action: "set-image", expected: {}, container: "app", image: "nginx:1.27" })).toMatchObject({
      container: "app",
      image: "nginx:1.27",
    });
    expect(RolloutActionRequest.safeParse({ action: "set-image", expected: {}, container: "*", image: "nginx" }).success).toBe(true);
    expect(RolloutActionRequest.safeParse({ action: "set-image", expected: {}, container: "app" }).success).toBe(false);
    expect(RolloutActionRequest.safeParse({ action: "set-image", expected: {}, container: "App!", image: "nginx" }).success).toBe(false);
    expect(RolloutActionRequest.safeParse({ action: "set-image", expected: {}, container: "app", image: "a b" }).success).toBe(false);
    expect(RolloutActionRequest.safeParse({ action: "abort", expected: {}, image: "nginx" }).success).toBe(false);
  });

  it("accepts undo with or without a revision to go back to", () => {
    expect(RolloutActionRequest.parse({ action: "undo", expected: {}, toRevision: 3 })).toStrictEqual({
      action: "undo",
      expected: {},
      toRevision: 3,
    });
    expect(RolloutActionRequest.safeParse({ action: "undo", expected: {} }).success).toBe(true);
  });

  it("accepts an action with what the user saw", () => {
    const body = { action: "promote", expected: { resourceVersion: "123", revision: "4", stepIndex: null } };
    expect(RolloutActionRequest.parse(body)).toStrictEqual(body);
    const minimal = { action: "abort", expected: {} };
    expect(RolloutActionRequest.parse(minimal)).toStrictEqual(minimal);
  });

  it("rejects unknown actions, extra keys, a client-chosen restartAt and bad expectations", () => {
    for (const body of [
      { action: "rollback", expected: {} },
      { action: "undo", expected: {}, toRevision: 0 },
      { action: "undo", expected: {}, toRevision: "2" },
      { action: "promote" },
      { action: "restart", expected: {}, restartAt: "2026-11-30T01:02:03Z" },
      { action: "promote", expected: { generation: 3 } },
      { action: "promote", expected: { stepIndex: -1 } },
      { action: "promote", expected: { stepIndex: 1.5 } },
      { action: "promote", expected: { revision: "v4" } },
      { action: "promote", expected: { resourceVersion: "" } },
      { action: "promote", expected: { resourceVersion: "7", fingerprint: '{"not": "a digest"}' } },
    ]) {
      expect(RolloutActionRequest.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
  });
});
