import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const manifestSchema = z.looseObject({
  staticRoutes: z.array(z.looseObject({ page: z.string(), regex: z.string() })).default([]),
  dynamicRoutes: z.array(z.looseObject({ page: z.string(), regex: z.string() })).default([]),
});

/** The label of a request that matches no page or route handler (bounded, unlike the raw paths it stands for). */
export const UNMATCHED_ROUTE = "unmatched";

export type RouteMatcher = (pathname: string) => string;

/**
 * Maps a request path to the route it is served by (`/rollouts/[cluster]/[namespace]/[name]`), from the routes
 * manifest the build wrote beside the server: the label metrics need, whatever the names in the path.
 */
export function createRouteMatcher(manifest: unknown): RouteMatcher {
  const { staticRoutes, dynamicRoutes } = manifestSchema.parse(manifest);
  const statics = new Map(staticRoutes.map((r) => [r.page, r.page]));
  const dynamics = dynamicRoutes.map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/static/")) return "/_next/static";
    // A prefetch asks for a page's payload as <page>.rsc or <page>.segments/…; it is that page's route.
    const page =
      pathname
        .replace(/\.segments\/.*$/, "")
        .replace(/\.rsc$/, "")
        .replace(/^\/index$/, "/") || "/";
    const bare = page.length > 1 ? page.replace(/\/$/, "") : page;
    return statics.get(bare) ?? dynamics.find((r) => r.regex.test(bare))?.page ?? UNMATCHED_ROUTE;
  };
}

let processMatcher: RouteMatcher | null = null;

/** The matcher for the build this process serves (`.next/routes-manifest.json` under the working directory). */
export function routeOf(pathname: string): string {
  if (!processMatcher) {
    try {
      processMatcher = createRouteMatcher(JSON.parse(readFileSync(path.join(process.cwd(), ".next", "routes-manifest.json"), "utf8")));
    } catch {
      processMatcher = () => UNMATCHED_ROUTE;
    }
  }
  return processMatcher(pathname);
}
