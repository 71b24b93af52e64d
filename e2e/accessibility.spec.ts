import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { APP_PAGES } from "../test/harness/pages";

/** WCAG 2.1 level A and AA, as axe-core tags them. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

type Violations = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"];

/** One line per failing element: rule, selector and axe's explanation (colours and ratio for contrast). */
function describe(violations: Violations): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ")}`),
  );
}

test.describe("accessibility (axe-core, WCAG 2.1 A/AA)", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const appPage of APP_PAGES) {
      test(`${appPage.name} in ${scheme} mode has no violations`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        await page.goto(appPage.path);
        await appPage.ready(page);
        await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
        const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
        expect(describe(violations)).toEqual([]);
      });
    }
  }
});
