import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutActionResult, RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { RolloutDetail } from "@/lib/rollouts/detail-types";
import { namespaceObject } from "@/sim/scenarios/builders";
import {
  adminKubeConfig,
  createBasicCanary,
  createObjects,
  isPausedAt,
  readRollout,
  startPausedCanary,
  TEST_NAMESPACE,
  waitForCache,
  waitForRollout,
  type Backend,
} from "@/test/harness/backend";
import { startBridgedApp, type BridgedApp } from "@/test/harness/bridged-app";

/**
 * Actions behind sign-in (auth mode proxy) with impersonation: every request to the cluster runs as the signed-in
 * user, so the back-end's RBAC decides — alice (sre-operators) may patch Rollouts, bob (viewers) and carol
 * (shop-readers) may only read, mallory may not even read. What Rollscope offers is asked of the API server with
 * SubjectAccessReviews; what it does is checked by the controller moving the Rollout (or not).
 */
export function actionsAuthorizationSuite(getBackend: () => Promise<Backend>): void {
  const TRUSTED = "127.0.0.2";
  const PROMOTED = "act-promote";
  const ABORTED = "act-abort";
  const GROUPS = { alice: "sre-operators", bob: "viewers", carol: "shop-readers", mallory: "nobody", dave: "viewers" } as const;
  type User = keyof typeof GROUPS;
  let backend: Backend;
  let app: BridgedApp;

  const as = (user: User) => ({ "x-forwarded-user": user, "x-forwarded-groups": GROUPS[user] });
  const actionsPath = (name: string) => `/api/clusters/${backend.cluster}/rollouts/${TEST_NAMESPACE}/${name}/actions`;
  const view = (name: string, user: User) => app.read<RolloutActionsView>(actionsPath(name), as(user), TRUSTED);
  const post = async (name: string, user: User, body: unknown) =>
    app.call("POST", actionsPath(name), { from: TRUSTED, headers: await app.browser(as(user), TRUSTED), body });
  const audit = (query: string) => app.read<AuditPage>(`/api/audit?${query}`, as("alice"), TRUSTED);

  beforeAll(async () => {
    backend = await getBackend();
    app = await startBridgedApp(backend, {
      auth: { mode: "proxy", proxy: { trustedProxies: [`${TRUSTED}/32`] } },
      authorization: { auditReaders: { groups: ["sre-operators"] } },
    });
    await Promise.all([startPausedCanary(backend, PROMOTED), startPausedCanary(backend, ABORTED)]);
    await waitForCache(backend, app.cachedVersion, PROMOTED);
    await waitForCache(backend, app.cachedVersion, ABORTED);
  });

  afterAll(async () => {
    await app?.stop();
    await backend?.stop();
  });

  describe("actions authorized by the cluster's RBAC (impersonation, SubjectAccessReview)", () => {
    it("alice may promote: the action runs as alice and the controller moves the canary to 60 %", async () => {
      const options = await view(PROMOTED, "alice");
      expect(options.actingAs).toBe("Actions run as alice (impersonated): the cluster's RBAC decides");
      expect(options.actions.promote).toMatchObject({ enabled: true, permitted: true });
      const reply = await post(PROMOTED, "alice", { action: "promote", expected: options.expected });
      expect(reply.status, reply.text).toBe(200);
      expect((reply.body as RolloutActionResult).requests).toMatchObject([
        { kind: "get" },
        { kind: "patch", target: "status", outcome: "ok" },
      ]);
      const after = await waitForRollout(backend, PROMOTED, "paused at 60 % (step 3)", isPausedAt(3));
      expect(after.status?.canary?.weights?.canary?.weight).toBe(60);
      expect((await audit(`rollout=${PROMOTED}`)).entries[0]).toMatchObject({ user: "alice", action: "promote", outcome: "done" });
    });

    it("bob sees every action disabled with the reason the API server gave; his POST is refused, audited, and changes nothing", async () => {
      await waitForCache(backend, app.cachedVersion, PROMOTED);
      const options = await view(PROMOTED, "bob");
      expect(options.actions.promote).toMatchObject({
        enabled: false,
        permitted: false,
        reason: `Your Kubernetes permissions (bob, groups viewers) do not allow patch rollouts/status in namespace ${TEST_NAMESPACE}`,
      });
      expect(Object.values(options.actions).every((o) => !o.enabled)).toBe(true);
      const permissions = await app.read<{ permissions: Record<string, { allowed: boolean }> }>(
        `/api/session/permissions?cluster=${backend.cluster}&namespace=${TEST_NAMESPACE}&name=${PROMOTED}`,
        as("bob"),
        TRUSTED,
      );
      expect(permissions.permissions.promote.allowed).toBe(false);
      expect(permissions.permissions.pause.allowed).toBe(false);

      const before = (await readRollout(backend, PROMOTED)).metadata.resourceVersion;
      const reply = await post(PROMOTED, "bob", { action: "promote", expected: options.expected });
      expect(reply.status).toBe(403);
      expect((reply.body as { error: { code: string } }).error.code).toBe("forbidden");
      expect((await readRollout(backend, PROMOTED)).metadata.resourceVersion).toBe(before);
      expect((await audit("user=bob")).entries[0]).toMatchObject({
        user: "bob",
        action: "promote",
        outcome: "denied",
        message: expect.stringContaining("do not allow patch rollouts"),
      });
    });

    it("carol reads Rollouts of her namespace only and may not act; mallory may not read them at all", async () => {
      const carol = await view(PROMOTED, "carol");
      expect(carol.actions.promote).toMatchObject({ enabled: false, permitted: false });
      const detail = await app.call("GET", `/api/clusters/${backend.cluster}/rollouts/${TEST_NAMESPACE}/${PROMOTED}`, {
        from: TRUSTED,
        headers: as("carol"),
      });
      expect(detail.status).toBe(200);
      const hidden = await app.call("GET", actionsPath(PROMOTED), { from: TRUSTED, headers: as("mallory") });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toStrictEqual({
        error: { code: "not_found", message: `Rollout ${TEST_NAMESPACE}/${PROMOTED} not found in cluster ${backend.cluster}` },
      });
    });

    it("carol's page of a shop Rollout never shows the AnalysisRuns of a same-named Rollout in a namespace she cannot read", async () => {
      const NAME = "twin";
      const OTHER = "payments";
      const detailPath = (namespace: string) => `/api/clusters/${backend.cluster}/rollouts/${namespace}/${NAME}`;
      const runNames = (detail: RolloutDetail) => detail.analysisRuns.map((r) => r.name);
      await createObjects(backend, [namespaceObject(OTHER) as never]);
      await createBasicCanary(backend, NAME, [{ pause: {} }]);
      await createObjects(backend, [
        {
          apiVersion: "argoproj.io/v1alpha1",
          kind: "Rollout",
          metadata: { name: NAME, namespace: OTHER },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: `${NAME}-${OTHER}` } },
            template: {
              metadata: { labels: { app: `${NAME}-${OTHER}` } },
              spec: { containers: [{ name: "web", image: "registry.local/rollscope-test/payments:1.0.0" }] },
            },
            strategy: { canary: { steps: [{ pause: {} }] } },
          },
        } as never,
      ]);
      // The run carries the pod-template hash of one of the twin's ReplicaSets, as the controller's own runs do: the
      // real controller deletes a run of its Rollout without one (utils/analysis.FilterAnalysisRunsToDelete) at the
      // Rollout's next reconcile, which some runs of this test hit before the page was read.
      const twin = await waitForRollout(backend, NAME, "given a pod-template hash", (r) => !!r.status?.currentPodHash, 60_000, OTHER);
      const podHash = twin.status!.currentPodHash!;
      const run = (name: string, namespace: string, owner: { name: string; uid: string }) => ({
        apiVersion: "argoproj.io/v1alpha1",
        kind: "AnalysisRun",
        metadata: {
          name,
          namespace,
          labels: { "rollout-type": "Step", "rollouts-pod-template-hash": podHash },
          ownerReferences: [{ apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", name: owner.name, uid: owner.uid, controller: true }],
        },
        spec: { metrics: [{ name: "payments-secret-metric", provider: { web: { url: "http://127.0.0.1:9/secret" } } }] },
      });
      await createObjects(backend, [
        run("twin-payments-run", OTHER, { name: NAME, uid: (twin.metadata as { uid?: string }).uid! }),
      ] as never[]);

      // Rollscope sees the run: it is on the page of the Rollout that owns it, for a user who may read that namespace.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const owner = await app.read<RolloutDetail>(detailPath(OTHER), as("alice"), TRUSTED).catch(() => null);
        if (owner && runNames(owner).includes("twin-payments-run")) break;
        if (Date.now() > deadline) throw new Error(`${backend.kind}: payments/${NAME}'s page never listed its AnalysisRun`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await waitForCache(backend, app.cachedVersion, NAME);
      const carols = await app.call("GET", detailPath(TEST_NAMESPACE), { from: TRUSTED, headers: as("carol") });
      expect(carols.status, carols.text).toBe(200);
      expect(runNames(carols.body as RolloutDetail)).toEqual([]);
      expect(carols.text).not.toContain("payments-secret-metric");
      expect(runNames(await app.read<RolloutDetail>(detailPath(TEST_NAMESPACE), as("alice"), TRUSTED))).toEqual([]);
      expect((await app.call("GET", detailPath(OTHER), { from: TRUSTED, headers: as("carol") })).status).toBe(404);
    });

    it("alice aborts: the canary goes back to 0 %, the Rollout is Degraded, and retry is offered instead of abort", async () => {
      const options = await view(ABORTED, "alice");
      const reply = await post(ABORTED, "alice", { action: "abort", expected: options.expected });
      expect(reply.status, reply.text).toBe(200);
      const aborted = await waitForRollout(
        backend,
        ABORTED,
        "Degraded at 0 %",
        (r) => r.status?.phase === "Degraded" && r.status.canary?.weights?.canary?.weight === 0,
      );
      expect(aborted.status?.abort).toBe(true);
      await waitForCache(backend, app.cachedVersion, ABORTED);
      const after = await view(ABORTED, "alice");
      expect(after.actions.retry.enabled).toBe(true);
      expect(after.actions.abort).toMatchObject({ enabled: false, reason: "Rollout is already aborted" });
    });

    it("sends one Impersonate-Group line per group, so the API server sees each of them", async () => {
      const { kubeRequest } = await import("@/lib/k8s/kube-request");
      const { impersonationHeaders } = await import("@/lib/services/session");
      const kubeConfig = adminKubeConfig(backend);
      kubeConfig.setCurrentContext(backend.cluster);
      const path = `/apis/argoproj.io/v1alpha1/namespaces/${TEST_NAMESPACE}/rollouts/${ABORTED}`;
      const patch = (groups: string[]) =>
        kubeRequest(kubeConfig, path, {
          method: "PATCH",
          body: { metadata: { labels: { touched: "yes" } } },
          contentType: "application/merge-patch+json",
          headers: impersonationHeaders({ user: "dave", groups }),
        });
      await expect(patch(["viewers"])).rejects.toMatchObject({
        code: 403,
        message: expect.stringContaining('User "dave" cannot patch resource "rollouts"'),
      });
      await expect(patch(["viewers", "sre-operators"])).resolves.toBeTruthy();
    });
  });
}
