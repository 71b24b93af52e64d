import { expect, test } from "@playwright/test";

/*
 * Issue 12 in the browser (the e2e stack runs in auth mode none). Item 4: the /signin page's Continue link must
 * stay on this site whatever `returnTo` says; Chromium drops a tab or newline from a URL and reads `/\t/x` as `//x`.
 */

test.describe("open redirect on /signin", () => {
  for (const raw of ["/%09/evil.example", "/%0A/evil.example", "/%5Cevil.example", "javascript:alert(1)"]) {
    test(`returnTo=${raw} keeps the Continue link on this site`, async ({ page, baseURL }) => {
      await page.goto(`/signin?returnTo=${raw}`);
      const link = page.getByRole("link", { name: "Continue" });
      await expect(link).toBeVisible();
      // Resolved as the browser resolves it on click (WHATWG URL parsing, as in Node), without leaving 127.0.0.1.
      const target = new URL(String(await link.getAttribute("href")), String(baseURL));
      expect(target.origin).toBe(new URL(String(baseURL)).origin);
    });
  }

  test("a path on this site is kept", async ({ page }) => {
    await page.goto(`/signin?returnTo=${encodeURIComponent("/plugins")}`);
    await expect(page.getByRole("link", { name: "Continue" })).toHaveAttribute("href", "/plugins");
  });
});
