import { createServer } from "node:http";

/**
 * The endpoint the demo's web metric provider asks: GET /check answers {"ok": true} or {"ok": false};
 * POST /fail and POST /succeed switch the answer (e.g. `curl -X POST <url>/fail` to watch an analysis fail).
 */
export interface AnalysisEndpoint {
  url: string;
  checkUrl: string;
  setHealthy(ok: boolean): void;
  stop(): Promise<void>;
}

export async function startAnalysisEndpoint(port: number): Promise<AnalysisEndpoint> {
  let ok = true;
  const server = createServer((req, res) => {
    const route = `${req.method} ${req.url}`;
    if (route === "POST /fail" || route === "POST /succeed") ok = route === "POST /succeed";
    else if (route !== "GET /check") {
      res.writeHead(404, { "content-type": "text/plain" }).end("GET /check, POST /fail, POST /succeed\n");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "EADDRINUSE" ? new Error(`port ${port} (analysis endpoint) is in use`) : err),
    );
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    checkUrl: `${url}/check`,
    setHealthy: (value) => void (ok = value),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
