import { expect, test, type Locator, type Page } from "@playwright/test";
import type { SimulationHandle } from "../sim/cluster";
import { rolloutHref, clusterHref } from "../lib/format/hrefs";
import { startAppInstance, type AppInstance } from "../test/harness/app-instance";
import { createTestRolloutWithStrategy } from "../test/harness/fleet";
import { LONG_NAMES, startLongNamesSimulation } from "../test/harness/long-names-scenario";
import { APP_PAGES } from "../test/harness/pages";

const PHONE = { width: 390, height: 844 };

/** The page is no wider than the window; on failure, names the innermost elements that stick out (outside scroll boxes). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
    const inScrollBox = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== "visible") return true;
      return false;
    };
    const wide = [...document.querySelectorAll("body *")].filter(
      (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !inScrollBox(el),
    );
    const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> ${el.textContent?.slice(0, 60) ?? ""}`;
    return {
      scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
      innerWidth: window.innerWidth,
      culprits: innermost.slice(0, 5).map(describe),
    };
  });
  expect(scrollWidth, `the page's width; sticking out: ${culprits.join("; ")}`).toBeLessThanOrEqual(innerWidth);
}

interface ShownName {
  tag: string;
  width: number;
  /** The text is cut off (truncated): then a title must carry it in full. */
  cut: boolean;
  title: string;
}

/** Every element whose own text contains `text`, with its width and whether the text is cut off. */
function elementsShowing(page: Page, text: string): Promise<ShownName[]> {
  return page.evaluate((needle) => {
    const owners = [...document.querySelectorAll<HTMLElement>("body *")].filter(
      (el) => el.checkVisibility() && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.includes(needle)),
    );
    return owners.map((el) => ({
      tag: el.tagName.toLowerCase(),
      width: el.getBoundingClientRect().width,
      cut: el.scrollWidth > el.clientWidth + 1,
      title: el.closest("[title]")?.getAttribute("title") ?? "",
    }));
  }, text);
}

/** Long names wrap to the screen's width, or are cut with the full name on hover. */
async function expectNamesReadable(page: Page, name: string, fullName = name): Promise<void> {
  const shown = await elementsShowing(page, name);
  expect(shown.length, `elements showing ${name}`).toBeGreaterThan(0);
  const innerWidth = await page.evaluate(() => window.innerWidth);
  for (const el of shown) {
    expect(el.width, `width of <${el.tag}> showing ${name}`).toBeLessThanOrEqual(innerWidth);
    if (el.cut) expect(el.title, `title of the cut-off <${el.tag}>`).toContain(fullName);
  }
}

test.describe("390 px wide (a phone)", () => {
  test.use({ viewport: PHONE });
  for (const appPage of APP_PAGES) {
    test(`${appPage.name} does not scroll sideways`, async ({ page }) => {
      await page.goto(appPage.path);
      await appPage.ready(page);
      await expectNoSidewaysScroll(page);
    });
  }
});

/** A blue-green Rollout waiting for a manual promote: the pause box with its longest reason. */
function createBlueGreenTestRollout(cluster: string, namespace: string, name: string): Promise<void> {
  return createTestRolloutWithStrategy(cluster, namespace, name, {
    blueGreen: { activeService: `${name}-active`, previewService: `${name}-preview`, autoPromotionEnabled: false },
  });
}

/** How many lines the element's text takes. */
function lineCount(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
}

/** The vertical middle of each element, rounded to the pixel. */
async function middles(locators: Locator[]): Promise<number[]> {
  return Promise.all(
    locators.map(async (locator) => {
      const box = await locator.boundingBox();
      if (!box) throw new Error(`${locator} is not on screen`);
      return Math.round(box.y + box.height / 2);
    }),
  );
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
]) {
  test(`at ${viewport.width} px the header holds the navigation, every cluster and the session on one line`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/");
    const chips = page.getByTestId("cluster-chip");
    await expect(chips).toHaveCount(3);
    const session = page.getByTestId("session-status");
    // Mode none: the header says so in two words; the whole sentence is the title and what a screen reader reads.
    await expect(session).toContainText("No sign-in");
    await expect(session.locator("[title]")).toHaveAttribute("title", "No sign-in: actions run as the dashboard's kubeconfig identity");
    const line = await middles([page.getByRole("navigation", { name: "Main" }), ...(await chips.all()), session]);
    for (const middle of line) expect(Math.abs(middle - line[0]), `middles ${line.join(", ")}`).toBeLessThanOrEqual(2);
  });
}

test.describe("1440 px wide (a laptop)", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the audit log's filters wrap with the time range and Apply and Clear each kept together", async ({ page }) => {
    await page.goto("/audit");
    const filters = page.getByTestId("audit-filters");
    const [from, to, apply, clear] = await middles([
      filters.getByLabel("From"),
      filters.getByLabel("To"),
      filters.getByRole("button", { name: "Apply" }),
      filters.getByRole("button", { name: "Clear" }),
    ]);
    expect(Math.abs(from - to), "From and To on one line").toBeLessThanOrEqual(2);
    expect(Math.abs(apply - clear), "Apply and Clear on one line").toBeLessThanOrEqual(2);
  });

  test("the pause box shows its reason and its clock each on one line", async ({ page }) => {
    await createBlueGreenTestRollout("staging", "shop", "e2e-pause-box");
    await page.goto("/rollouts/staging/shop/e2e-pause-box");
    const box = page.getByTestId("pause-callout");
    await expect(box).toContainText("Blue-green pause before promotion", { timeout: 30_000 });
    expect(await lineCount(box.getByText("Blue-green pause before promotion"))).toBe(1);
    expect(await lineCount(box.getByTestId("pause-age"))).toBe(1);
  });
});

test.describe("very long cluster, namespace, Rollout and plugin names", () => {
  let sim: SimulationHandle;
  let app: AppInstance;
  test.describe.configure({ timeout: 120_000 });

  test.beforeAll(async () => {
    sim = await startLongNamesSimulation();
    app = await startAppInstance({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: LONG_NAMES.cluster }] });
  });

  test.afterAll(async () => {
    await app?.stop();
    await sim?.stop();
  });

  const pluginTail = LONG_NAMES.plugin.split("/")[1];
  const pages = [
    { name: "overview", path: "/", ready: "attention-item", names: [LONG_NAMES.rollout, LONG_NAMES.cluster] },
    {
      name: "rollout detail",
      path: rolloutHref(LONG_NAMES.cluster, LONG_NAMES.namespace, LONG_NAMES.rollout),
      ready: "pause-callout",
      names: [LONG_NAMES.rollout, LONG_NAMES.namespace],
    },
    {
      name: "plugins",
      path: "/plugins",
      ready: "plugin-health-row",
      names: [pluginTail, LONG_NAMES.missingPlugin.split("/")[1], LONG_NAMES.cluster],
    },
    { name: "cluster", path: clusterHref(LONG_NAMES.cluster), ready: "cluster-page", names: [LONG_NAMES.cluster] },
    { name: "clusters", path: "/clusters", ready: "cluster-card", names: [LONG_NAMES.cluster] },
  ];

  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    for (const p of pages) {
      test(`${p.name} at ${viewport.width} px keeps every name on screen`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.goto(`${app.url}${p.path}`);
        await expect(page.getByTestId(p.ready).first()).toBeVisible({ timeout: 30_000 });
        await expectNoSidewaysScroll(page);
        for (const name of p.names) await expectNamesReadable(page, name);
      });
    }
  }
});
