import { expect, test, type Locator, type Page } from "@playwright/test";
import { backgroundRgb, isRed } from "../test/harness/colors";
import { createTestRollout, TEST_STEPS, waitForAppliedWeight } from "../test/harness/fleet";

async function confirmButtonOf(page: Page, action: string): Promise<Locator> {
  await page.getByTestId(`action-${action}`).click();
  const dialog = page.getByTestId("confirm-action-dialog");
  await expect(dialog).toBeVisible();
  return dialog.getByTestId("confirm-action");
}

test.describe("confirmation dialogs", () => {
  test("confirming abort or a full promotion is a red button, a plain promote is not, in light and dark", async ({ page }) => {
    await createTestRollout("staging", "shop", "e2e-danger", TEST_STEPS);
    await waitForAppliedWeight("staging", "shop", "e2e-danger", 20);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/rollouts/staging/shop/e2e-danger");
      await expect(page.getByTestId("action-abort")).toBeEnabled({ timeout: 30_000 });
      for (const action of ["abort", "promote-full"]) {
        const confirm = await confirmButtonOf(page, action);
        expect(isRed(await backgroundRgb(confirm)), `${action} confirm button in ${scheme} mode is red`).toBe(true);
        await page.keyboard.press("Escape");
        await expect(page.getByTestId("confirm-action-dialog")).toBeHidden();
      }
      const promote = await confirmButtonOf(page, "promote");
      expect(isRed(await backgroundRgb(promote)), `promote confirm button in ${scheme} mode`).toBe(false);
      await page.keyboard.press("Escape");
    }
  });
});
