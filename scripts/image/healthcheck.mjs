// The image's HEALTHCHECK: liveness (GET /api/healthz); exit 0 when it answers 200. On the probe listener
// (ROLLSCOPE_PROBE_LISTEN, which the image sets) when there is one, since no load on the pages' port can delay it;
// else on the pages' port, under the sub-path the build serves (ROLLSCOPE_BASE_PATH).
const probe = process.env.ROLLSCOPE_PROBE_LISTEN?.trim();
const probePort = probe ? probe.slice(probe.lastIndexOf(":") + 1) : "";
const target = probePort
  ? `http://127.0.0.1:${probePort}/api/healthz`
  : `http://127.0.0.1:${process.env.PORT ?? "3000"}${(process.env.ROLLSCOPE_BASE_PATH ?? "").replace(/\/+$/, "")}/api/healthz`;
fetch(target, { signal: AbortSignal.timeout(4_000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
