/** Runs once per server process, before the first request is handled: checks the configuration, then starts the watches and the warm-up. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // From here on every line the process writes (ours and Next's) is one JSON object, scrubbed of credentials.
  if (process.env.NODE_ENV !== "development") (await import("./lib/log/console-bridge")).installConsoleBridge();
  const { checkStartupConfiguration, describeServedHosts, startOrExit } = await import("./lib/server/startup-check");
  // A bad configuration ends the process here, naming the field, rather than leaving a server that answers 500.
  const config = await startOrExit(checkStartupConfiguration);
  console.log(describeServedHosts(config));
  // Host check, body-size check, request ids, timing and the access log for every request (pages and assets too).
  (await import("./lib/http/request-gate")).installRequestGate();
  const { startMetricsListener } = await import("./lib/server/metrics-listener");
  await startOrExit(() => startMetricsListener(config));
  const { getAppContext, startApp } = await import("./lib/server/app-context");
  const services = await startOrExit(startApp);
  // The plugins page's default health report, kept computed in the background (see startKeptPluginHealth).
  const [{ startKeptPluginHealth }, { firstListed }] = await Promise.all([
    import("./lib/services/plugin-health"),
    import("./lib/server/warm-up"),
  ]);
  const app = getAppContext();
  services.alsoStop(startKeptPluginHealth(app, () => firstListed(() => app.fleet.clusterStates())));
  // The overview rendered once, in the background, before /api/readyz says ready: no user pays for a cold server.
  if (process.env.NODE_ENV === "production") {
    const [{ startWarmUp }, { getServerSettings }] = await Promise.all([
      import("./lib/server/warm-up"),
      import("./lib/server/server-settings"),
    ]);
    startWarmUp(getAppContext().fleet, getServerSettings().allowedHosts);
  }
  // The kubelet's probes on a port and a thread of their own, where no load on the pages' port can starve them;
  // started after the warm-up, so the first answer is not "ready" before the warm-up has begun.
  const [{ probeListenAddress, startProbeListener }, { checkReadiness }, { warmUpStatus }] = await Promise.all([
    import("./lib/http/probe-listener"),
    import("./lib/services/readiness"),
    import("./lib/server/warm-up"),
  ]);
  const probeAddress = await startOrExit(() => probeListenAddress(config));
  if (probeAddress) {
    await startOrExit(() =>
      startProbeListener({
        address: probeAddress,
        isReady: async () => {
          const { ready, checks } = await checkReadiness(getAppContext, warmUpStatus());
          const failing = Object.entries(checks).filter(([, check]) => !check.ok);
          return { ready, reason: failing.map(([name, check]) => `${name}: ${check.detail ?? "failing"}`).join("; ") || null };
        },
      }),
    );
    console.log(`Rollscope: probes at http://${probeAddress}/api/healthz and /api/readyz`);
  }
}
