/**
 * `--only first-row`: the first load of the overview, taken apart, then of the detail and plugins pages. N times a new Chromium page opens the overview
 * (the same observer as the whole bench: the first frame after a `rollout-row` is attached and visible) and the
 * page's Navigation and Resource Timing say where the time went: the server's first byte (rendering), the last byte
 * (the HTML's size), the render-blocking stylesheet, first paint and the first row. The HTML's size is read with a plain request (decoded and as sent, gzip).
 */
import { chromium } from "@playwright/test";
import type { AppProcess } from "../test/harness/app-process";
import { distribution, ms, sleep, type Distribution, type Row } from "./measure";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * The page notes, itself, when the first element matching `selector` is shown (attached, visible, then the next
 * frame): its first content, as a user sees it, not a placeholder.
 */
function firstContentObserver(selector: string): string {
  return `(() => {
  const check = () => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el || window.__firstRowAt !== undefined || !el.checkVisibility()) return false;
    window.__firstRowAt = -1;
    requestAnimationFrame(() => (window.__firstRowAt = performance.now()));
    return true;
  };
  const observer = new MutationObserver(() => check() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true });
})();`;
}

/** The overview's: the first frame after a rollout row is attached and visible. */
export const FIRST_ROW_OBSERVER = firstContentObserver('[data-testid="rollout-row"]');

/** One first load, in ms from the start of navigation. */
export interface FirstLoadTiming {
  firstRow: number;
  /** The HTML's first byte: the server's render time plus the network. */
  firstByte: number;
  /** The HTML's last byte. */
  lastByte: number;
  /** The last render-blocking stylesheet's last byte (NaN when the CSS is in the HTML). */
  stylesheet: number;
  firstContentfulPaint: number;
  /** Every script fetched and run, React hydrated (the page's load event). */
  load: number;
}

async function loadOnce(url: string, observer = FIRST_ROW_OBSERVER): Promise<FirstLoadTiming> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript({ content: observer });
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    await page.waitForFunction(() => ((window as unknown as { __firstRowAt?: number }).__firstRowAt ?? -1) >= 0, undefined, {
      timeout: 60_000,
      polling: 100,
    });
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
      const css = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((e) => e.name.endsWith(".css"));
      return {
        firstRow: (window as unknown as { __firstRowAt: number }).__firstRowAt,
        firstByte: nav.responseStart,
        lastByte: nav.responseEnd,
        stylesheet: css.length ? Math.max(...css.map((e) => e.responseEnd)) : Number.NaN,
        firstContentfulPaint: fcp,
        load: nav.loadEventStart,
      };
    });
  } finally {
    await browser.close();
  }
}

/** The overview's HTML as a browser receives it: its size decoded and compressed. */
async function measureHtmlBytes(url: string): Promise<{ decoded: number; gzip: number }> {
  const decoded = (await (await fetch(url)).arrayBuffer()).byteLength;
  // Node's fetch decodes gzip itself; the compressed size is what the server sends when asked for gzip alone.
  const { request } = await import("node:http");
  const gzip = await new Promise<number>((resolve, reject) => {
    const req = request(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve(bytes));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
  return { decoded, gzip };
}

export interface FirstRowFigures {
  loads: number;
  firstRow: Distribution;
  firstByte: Distribution;
  lastByte: Distribution;
  stylesheet: Distribution;
  firstContentfulPaint: Distribution;
  load: Distribution;
  html: { decoded: number; gzip: number };
}

/** `loads` first loads one after the other (a second apart), then the HTML's size. */
export async function measureFirstRows(app: AppProcess, loads: number): Promise<FirstRowFigures> {
  const timings: FirstLoadTiming[] = [];
  for (let i = 0; i < loads; i++) {
    // A load with no row within 60 s is reported (n counts the loads measured) rather than ending the run.
    const timing = await loadOnce(app.url).catch((err: unknown) => console.error(`first load ${i + 1}: ${String(err).split("\n")[0]}`));
    if (timing) timings.push(timing);
    if (timing)
      console.log(
        `first load ${i + 1}: first row ${ms(timing.firstRow)}, first byte ${ms(timing.firstByte)}, last byte ${ms(timing.lastByte)}`,
      );
    await sleep(1_000);
  }
  const of = (pick: (t: FirstLoadTiming) => number) => distribution(timings.map(pick).filter(Number.isFinite));
  return {
    loads,
    firstRow: of((t) => t.firstRow),
    firstByte: of((t) => t.firstByte),
    lastByte: of((t) => t.lastByte),
    stylesheet: of((t) => t.stylesheet),
    firstContentfulPaint: of((t) => t.firstContentfulPaint),
    load: of((t) => t.load),
    html: await measureHtmlBytes(app.url),
  };
}

/** The other pages a user opens first: their first content, not a placeholder (issue 29: within 1 s). */
const OTHER_PAGES = [
  { page: "the rollout detail page's weights", selector: '[data-testid="weights"]' },
  { page: "the plugins page's first health row", selector: '[data-testid="plugin-health-row"]', path: "/plugins" },
] as const;

export interface FirstContentFigures {
  page: string;
  path: string;
  firstContent: Distribution;
}

/** `loads` first loads of the detail page (of the overview's first Rollout) and of the plugins page, one after the other. */
export async function measureOtherFirstLoads(app: AppProcess, loads: number): Promise<FirstContentFigures[]> {
  const overview = (await (await fetch(`${app.url}/api/rollouts`)).json()) as {
    rows: Array<{ cluster: string; namespace: string; name: string }>;
  };
  const first = overview.rows[0];
  if (!first) throw new Error("the overview lists no Rollout to open");
  const detailPath = `/rollouts/${encodeURIComponent(first.cluster)}/${encodeURIComponent(first.namespace)}/${encodeURIComponent(first.name)}`;
  const figures: FirstContentFigures[] = [];
  for (const other of OTHER_PAGES) {
    const path = "path" in other ? other.path : detailPath;
    const times: number[] = [];
    for (let i = 0; i < loads; i++) {
      const timing = await loadOnce(`${app.url}${path}`, firstContentObserver(other.selector)).catch((err: unknown) =>
        console.error(`first load of ${path} ${i + 1}: ${String(err).split("\n")[0]}`),
      );
      if (timing) times.push(timing.firstRow);
      await sleep(1_000);
    }
    console.log(`first loads of ${path}: ${times.map(ms).join(", ")}`);
    figures.push({ page: other.page, path, firstContent: distribution(times) });
  }
  return figures;
}

export function otherFirstLoadRows(figures: readonly FirstContentFigures[]): Row[] {
  return figures.map((f) => ({
    metric: `First load: ${f.page} p50/p95 (n=${f.firstContent.n})`,
    value: `${ms(f.firstContent.p50)} / ${ms(f.firstContent.p95)}`,
    target: "≤ 1.0 s",
    met: f.firstContent.p95 <= 1000,
  }));
}

export function firstRowRows(f: FirstRowFigures): Row[] {
  const pair = (d: Distribution) => `${ms(d.p50)} / ${ms(d.p95)}`;
  return [
    {
      metric: `First load: time to the first rollout row p50/p95 (n=${f.firstRow.n})`,
      value: pair(f.firstRow),
      target: "≤ 1.0 s",
      met: f.firstRow.p95 <= 1000,
    },
    { metric: "First load: the HTML's first byte p50/p95", value: pair(f.firstByte), target: "", met: null },
    { metric: "First load: the HTML's last byte p50/p95", value: pair(f.lastByte), target: "", met: null },
    { metric: "First load: the stylesheet's last byte p50/p95", value: pair(f.stylesheet), target: "", met: null },
    { metric: "First load: first contentful paint p50/p95", value: pair(f.firstContentfulPaint), target: "", met: null },
    { metric: "First load: load event (scripts run) p50/p95", value: pair(f.load), target: "", met: null },
    {
      metric: "First load: the overview's HTML (decoded / gzip)",
      value: `${(f.html.decoded / 1024).toFixed(0)} KiB / ${(f.html.gzip / 1024).toFixed(0)} KiB`,
      target: "",
      met: null,
    },
  ];
}
