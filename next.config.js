const isDev = process.env.NODE_ENV === "development";

/**
 * Serving under a sub-path (`/rollscope/…` behind an ingress) is a build-time setting in Next (basePath is compiled
 * into every route, link and asset URL): build with ROLLSCOPE_BASE_PATH=/rollscope, and start with the same value in
 * the environment and as `server.basePath` in the configuration (the start-up check refuses a mismatch). Client code
 * reaches the prefix as NEXT_PUBLIC_BASE_PATH (lib/format/base-path.ts). ROLLSCOPE_DIST_DIR builds into another
 * directory than `.next` (the sub-path e2e pass keeps its build apart from the root one).
 */
const basePath = process.env.ROLLSCOPE_BASE_PATH ?? "";
if (basePath !== "" && !/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
  throw new Error(`ROLLSCOPE_BASE_PATH must be empty or a path like /rollscope (no trailing slash), not ${JSON.stringify(basePath)}`);
}

/**
 * Next's App Router streams its payload through inline <script> tags, so scripts need 'unsafe-inline' without
 * per-request nonces (which would force every page dynamic); React refresh in `next dev` also needs 'unsafe-eval'.
 * Everything else is 'self' only: the browser talks to this origin and nowhere else.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${isDev ? " ws: wss:" : ""}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  ...(basePath ? { basePath } : {}),
  ...(process.env.ROLLSCOPE_DIST_DIR ? { distDir: process.env.ROLLSCOPE_DIST_DIR } : {}),
  env: { NEXT_PUBLIC_BASE_PATH: basePath },
  // A self-contained server (.next/standalone/server.js with only the node_modules it loads) for the image;
  // `next start` still serves the same build (it only warns), so the demo and the tests are unchanged.
  output: "standalone",
  // sharp and its libvips (about 20 MB) serve next/image, which Rollscope does not use: kept out of the image.
  outputFileTracingExcludes: { "*": ["node_modules/sharp/**", "node_modules/@img/**"] },
  poweredByHeader: false,
  // Server-only Node packages: loaded from node_modules at run time instead of being bundled.
  serverExternalPackages: ["@kubernetes/client-node", "better-sqlite3", "@prisma/adapter-better-sqlite3", "prom-client"],
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
