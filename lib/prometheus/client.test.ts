import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prometheusConfigSchema } from "@/lib/config/schema";
import { createPrometheusClient, PrometheusError } from "./client";

const PASSWORD = "prom-pw-5d1c8e";
let server: http.Server;
let port = 0;
const seen: Array<{ url?: string; authorization?: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ status: "success", data: { resultType: "matrix", result: [] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("createPrometheusClient with credentials in the URL", () => {
  it("sends them as basic auth and shows the server without them", async () => {
    const client = createPrometheusClient(prometheusConfigSchema.parse({ url: `http://reader:${PASSWORD}@127.0.0.1:${port}/` }));
    expect(client.describe).toBe(`http://127.0.0.1:${port}`);
    await client.queryRange("up", 0, 60_000, 60);
    expect(seen.at(-1)).toEqual({
      url: "/api/v1/query_range",
      authorization: `Basic ${Buffer.from(`reader:${PASSWORD}`).toString("base64")}`,
    });
  });

  it("names an unreachable server without them", async () => {
    const client = createPrometheusClient(prometheusConfigSchema.parse({ url: `http://reader:${PASSWORD}@127.0.0.1:1`, timeoutMs: 1_000 }));
    const failure = await client.queryRange("up", 0, 60_000, 60).catch((err: unknown) => err as PrometheusError);
    expect(failure).toBeInstanceOf(PrometheusError);
    expect((failure as PrometheusError).message).toMatch(/^Prometheus http:\/\/127\.0\.0\.1:1 is unreachable/);
  });
});
