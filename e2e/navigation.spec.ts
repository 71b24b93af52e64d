import { expect, test } from "@playwright/test";

test.describe("keyboard navigation and missing pages", () => {
  test("the first Tab reaches a visible skip link that moves focus past the header to the content", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("rollout-row").first()).toBeVisible();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();
    // The next Tab continues inside the content, not in the header.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.querySelector("main")?.contains(document.activeElement))).toBe(true);
  });

  test("after a client-side navigation focus is on the new page's heading", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Plugins" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Plugins" })).toBeFocused();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rollouts" }).click();
    await page.locator('[data-testid="rollout-row"][data-key="prod-eu/shop/checkout"] a').click();
    // The detail page renders its heading once its data arrives: focus waits for it.
    await expect(page.getByRole("heading", { level: 1, name: "checkout" })).toBeFocused();
  });

  test("an unknown address shows a styled 404 inside the app with a way back", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await page.getByTestId("not-found").getByRole("link", { name: "All rollouts" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("rollout-row").first()).toBeVisible();
  });
});
