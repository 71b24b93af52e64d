/** Runs once per server process, before the first request is handled: checks the configuration, then starts the watches. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkStartupConfiguration, describeServedHosts, startOrExit } = await import("./lib/server/startup-check");
  // A bad configuration ends the process here, naming the field, rather than leaving a server that answers 500.
  const config = await startOrExit(checkStartupConfiguration);
  console.log(describeServedHosts(config));
  // Host check, body-size check and the peer-address stamp for every request from here on (pages and assets too).
  (await import("./lib/http/request-gate")).installRequestGate();
  const { startApp } = await import("./lib/server/app-context");
  await startOrExit(startApp);
}
