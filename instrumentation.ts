/** Runs once per server process: starts the cluster watches and the recorder before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundServices } = await import("./lib/server/background-services");
  await startBackgroundServices();
}
