/**
 * `--only first-row`: the first load of the overview, taken apart. N times a new Chromium page opens the overview
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

/** The page notes, itself, when a rollout row is first shown (attached, visible, then the next frame). */
export const FIRST_ROW_OBSERVER = `(() => {
  const check = () => {
    const row = document.querySelector('[data-testid="rollout-row"]');
    if (!row || window.__firstRowAt !== undefined || !row.checkVisibility()) return false;
    window.__firstRowAt = -1;
    requestAnimationFrame(() => (window.__firstRowAt = performance.now()));
    return true;
  };
  const observer = new MutationObserver(() => check() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true });
})();`;

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

async function loadOnce(url: string): Promise<FirstLoadTiming> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript({ content: FIRST_ROW_OBSERVER });
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
