// The image's HEALTHCHECK: liveness (GET /api/healthz) on the server's own port; exit 0 when it answers 200.
const port = process.env.PORT ?? "3000";
fetch(`http://127.0.0.1:${port}/api/healthz`, { signal: AbortSignal.timeout(4_000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
