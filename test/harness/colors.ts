import type { Locator } from "@playwright/test";

export type Rgb = [number, number, number];

/** The element's computed background as sRGB, whatever colour syntax the stylesheet used (Tailwind v4: oklch). */
export function backgroundRgb(locator: Locator): Promise<Rgb> {
  return locator.evaluate((el) => {
    const context = document.createElement("canvas").getContext("2d");
    if (!context) throw new Error("no 2d canvas");
    context.fillStyle = getComputedStyle(el).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b] as Rgb;
  });
}

export const isRed = ([r, g, b]: Rgb) => r > 150 && g < 90 && b < 130;
export const isDark = ([r, g, b]: Rgb) => Math.max(r, g, b) < 60;
