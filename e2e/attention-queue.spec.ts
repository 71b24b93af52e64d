import { PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { expect, test, type Page } from "@playwright/test";
import { adminClient, createTestRollout, TEST_STEPS } from "../test/harness/fleet";

const ROLLOUT = { group: "argoproj.io", version: "v1alpha1", plural: "rollouts" };

function card(page: Page, key: string) {
  return page.locator(`[data-testid="attention-item"][data-key="${key}"]`);
}

/** What a person reads off the queue at one instant: the header's count, the cards, and how many the button or note says are left. */
async function readQueue(page: Page) {
  return page.getByTestId("attention-queue").evaluate((queue) => {
    const hidden =
      queue.querySelector('[data-testid="attention-toggle"]')?.getAttribute("data-hidden") ??
      queue.querySelector('[data-testid="attention-more"]')?.getAttribute("data-hidden") ??
      "0";
    const cards = [...queue.querySelectorAll('[data-testid="attention-item"]')];
    return {
      count: Number(queue.getAttribute("data-count")),
      cards: cards.length,
      hidden: Number(hidden),
      keys: cards.map((c) => c.getAttribute("data-key")),
      severities: cards.map((c) => c.getAttribute("data-severity")),
    };
  });
}

/** The queue as the server answers it now: its count and its first (collapsed) cards. */
async function serverQueue(page: Page): Promise<{ count: number; keys: string[] }> {
  const body = (await (await page.request.get("/api/rollouts")).json()) as {
    attention: { total: number; entries: Array<{ rollout: { key: string } }> };
  };
  return { count: body.attention.total, keys: body.attention.entries.slice(0, 8).map((e) => e.rollout.key) };
}

/** `kubectl argo rollouts abort`: status.abort on the /status subresource. */
async function abortInCluster(cluster: string, namespace: string, name: string): Promise<void> {
  await adminClient(cluster).patchNamespacedCustomObjectStatus(
    { ...ROLLOUT, namespace, name, body: { status: { abort: true } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}

async function deleteInCluster(cluster: string, namespace: string, name: string): Promise<void> {
  await adminClient(cluster)
    .deleteNamespacedCustomObject({ ...ROLLOUT, namespace, name })
    .catch(() => undefined);
}

test.describe.configure({ timeout: 120_000 });

test.describe("needs-attention queue", () => {
  test("the demo's broken staging platform/notifications is in the queue, linked to its finding, and on its detail page", async ({
    page,
  }) => {
    await page.goto("/?cluster=staging&q=notifications");
    const item = card(page, "staging/platform/notifications");
    await expect(item).toHaveAttribute("data-codes", /PluginNotRegistered/, { timeout: 30_000 });
    await expect(item).toHaveAttribute("data-severity", "critical");
    await expect(item).toHaveAttribute("data-action", "act");
    const link = item.locator('[data-testid="attention-reason"][data-code="PluginNotRegistered"] a');
    await expect(link).toHaveAttribute("href", "/plugins#referenced-not-registered/staging/trafficRouter/hashicorp/consul");
    await link.click();
    // The plugins page loads its registry after the page itself (a slow request on a loaded machine).
    await expect(page.locator('[id="referenced-not-registered/staging/trafficRouter/hashicorp/consul"]')).toBeVisible({ timeout: 90_000 });

    await page.goto("/rollouts/staging/platform/notifications");
    const reason = page.locator('[data-testid="rollout-attention"][data-code="PluginNotRegistered"]');
    await expect(reason).toContainText("hashicorp/consul");
    await expect(reason.getByTestId("attention-finding-link")).toHaveAttribute(
      "href",
      "/plugins#referenced-not-registered/staging/trafficRouter/hashicorp/consul",
    );
    // A plugin router is configured (it is only not registered): the weights panel must not say there is none.
    await expect(page.getByTestId("applied-weight")).not.toContainText("no traffic routing");
  });

  test("live updates alone re-sort and recount it: a fresh abort jumps ahead of the warnings, a deleted one leaves, a timed pause has no buttons", async ({
    page,
  }) => {
    const names = ["e2e-attn-a", "e2e-attn-b", "e2e-attn-c"];
    for (const name of names) await createTestRollout("prod-eu", "shop", name, TEST_STEPS);
    // A long timed pause (1 h simulated is minutes here): it continues on its own.
    await createTestRollout("prod-eu", "shop", "e2e-attn-timed", [{ setWeight: 20 }, { pause: { duration: "1h" } }, { setWeight: 50 }]);
    try {
      await page.goto("/?q=e2e-attn-");
      await expect(page.getByTestId("attention-item")).toHaveCount(4, { timeout: 30_000 });
      // From here on the page gets no new answer from the server: only the live stream's deltas change it.
      await page.route("**/api/rollouts**", (route) => route.abort());

      const timed = card(page, "prod-eu/shop/e2e-attn-timed");
      await expect(timed).toHaveAttribute("data-action", "wait");
      await expect(timed.getByRole("button")).toHaveCount(0);
      await expect(card(page, "prod-eu/shop/e2e-attn-a").getByRole("button").first()).toBeVisible();

      await abortInCluster("prod-eu", "shop", "e2e-attn-c");
      await expect.poll(async () => (await readQueue(page)).keys[0], { timeout: 30_000 }).toBe("prod-eu/shop/e2e-attn-c");
      let queue = await readQueue(page);
      expect(queue.severities[0]).toBe("critical");
      expect(queue.count).toBe(queue.cards + queue.hidden);
      expect(queue.keys.at(-1)).toBe("prod-eu/shop/e2e-attn-timed");

      await deleteInCluster("prod-eu", "shop", "e2e-attn-b");
      await expect.poll(async () => (await readQueue(page)).count, { timeout: 30_000 }).toBe(3);
      queue = await readQueue(page);
      expect(queue.count).toBe(queue.cards + queue.hidden);
      expect(queue.keys).not.toContain("prod-eu/shop/e2e-attn-b");
      await expect(page.getByTestId("attention-queue")).toContainText("3 rollouts · 1 critical");
    } finally {
      for (const name of [...names, "e2e-attn-timed"]) await deleteInCluster("prod-eu", "shop", name);
    }
  });

  test("a card's promote is confirmed after the card leaves, and a Rollout paused by spec.paused needs Resume", async ({ page }) => {
    const promoted = "e2e-attn-promote";
    const held = "e2e-attn-held";
    await createTestRollout("prod-eu", "shop", promoted, [{ setWeight: 20 }, { pause: {} }, { setWeight: 100 }]);
    await createTestRollout("prod-eu", "shop", held, [{ setWeight: 20 }, { pause: { duration: "1h" } }]);
    try {
      await page.goto("/?q=e2e-attn-");
      const promotedCard = card(page, `prod-eu/shop/${promoted}`);
      await expect(promotedCard.getByTestId("action-promote")).toBeEnabled({ timeout: 30_000 });
      await promotedCard.getByTestId("action-promote").click();
      await page.getByTestId("confirm-action").click();
      // The Rollout completes and leaves the queue; the queue still says what was done.
      await expect(promotedCard).toHaveCount(0, { timeout: 30_000 });
      await expect(page.getByTestId("attention-action-done")).toHaveText(`Promote ${promoted} sent: status patched`);

      // `kubectl argo rollouts pause`: spec.paused. Its card asks for Resume, with the button to do it.
      await adminClient("prod-eu").patchNamespacedCustomObject(
        { ...ROLLOUT, namespace: "shop", name: held, body: { spec: { paused: true } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      );
      const heldCard = card(page, `prod-eu/shop/${held}`);
      await expect(heldCard.getByTestId("attention-reason").first()).toHaveAttribute("data-code", "NeedsResume", { timeout: 30_000 });
      await expect(heldCard).toContainText("Needs Resume");
      await expect(heldCard).not.toContainText("Awaiting promotion");
      await expect(heldCard.getByTestId("action-resume")).toBeEnabled();
    } finally {
      for (const name of [promoted, held]) await deleteInCluster("prod-eu", "shop", name);
    }
  });

  test("over the whole churning demo fleet, live updates alone keep the count, the order and the cards what the server says", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByTestId("attention-item").first()).toBeVisible({ timeout: 30_000 });
    const before = await serverQueue(page);
    // From here on only the live stream's deltas change the page; the demo changes several rollouts a second.
    await page.route("**/api/rollouts**", (route) => route.abort());
    // Wait until the demo's churn has changed the queue (the server's answer differs), so the page must have followed.
    await expect
      .poll(async () => JSON.stringify(await serverQueue(page)) !== JSON.stringify(before), {
        message: "the demo's queue to change",
        timeout: 90_000,
      })
      .toBe(true);
    // What a fresh answer of the server says, once the deltas in flight have landed (it shares an answer for 1 s).
    await expect
      .poll(
        async () => {
          const [shown, server] = await Promise.all([readQueue(page), serverQueue(page)]);
          const seen = { count: shown.count, cardsPlusLeft: shown.cards + shown.hidden, keys: shown.keys };
          const expected = { count: server.count, cardsPlusLeft: server.count, keys: server.keys };
          return JSON.stringify(seen) === JSON.stringify(expected) ? "agree" : JSON.stringify({ seen, expected });
        },
        { timeout: 20_000 },
      )
      .toBe("agree");
  });
});
