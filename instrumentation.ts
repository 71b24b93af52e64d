/** Runs once per server process: starts the cluster watches, the recorder and the scraper before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Stamps each request with its socket address, so proxy-mode sign-in can trust only configured proxies.
  (await import("./lib/auth/peer-address")).installPeerAddressStamp();
  const { startApp } = await import("./lib/server/app-context");
  await startApp();
}
