import { expect, test, type Page } from "@playwright/test";
import { backgroundRgb, isDark } from "../test/harness/colors";

const html = (page: Page) => page.locator("html");
const DARK = /(^|\s)dark(\s|$)/;

/** Console errors about hydration (React's #418/#423/#425 in production) or anything thrown. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}

test.describe("colour theme", () => {
  test("a chosen dark theme persists across reloads, is on <html> before any script of the app runs, and hydrates cleanly", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    await expect(html(page)).not.toHaveClass(DARK);
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect(html(page)).toHaveClass(DARK);
    await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "true");
    expect(isDark(await backgroundRgb(page.locator("body"))), "the page background is dark").toBe(true);

    await page.reload();
    await expect(html(page)).toHaveClass(DARK);
    await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "true");
    expect(errors.filter((e) => /hydrat|#418|#423|#425/i.test(e))).toEqual([]);

    // Without the app's JavaScript the inline <head> script alone applies the choice: no light flash before hydration.
    await page.route("**/_next/static/**/*.js", (route) => route.abort());
    await page.reload();
    await expect(html(page)).toHaveClass(DARK);
  });

  test("light can be chosen against a dark system, and System follows the operating system again", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/clusters");
    await expect(html(page)).toHaveClass(DARK);
    await page.getByRole("button", { name: "Light theme" }).click();
    await expect(html(page)).not.toHaveClass(DARK);
    await page.reload();
    await expect(html(page)).not.toHaveClass(DARK);

    await page.getByRole("button", { name: "System theme" }).click();
    await expect(html(page)).toHaveClass(DARK);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html(page)).not.toHaveClass(DARK);
    await page.reload();
    await expect(page.getByRole("button", { name: "System theme" })).toHaveAttribute("aria-pressed", "true");
  });
});
