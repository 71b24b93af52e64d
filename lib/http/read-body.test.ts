import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { readJsonBody } from "./read-body";

/** A request whose body is `chunks` chunks of `size` bytes, counting how many the reader pulled. */
function streamingRequest(chunks: number, size: number, headers: Record<string, string> = {}): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= chunks) return controller.close();
        pulled++;
        controller.enqueue(new Uint8Array(size).fill(0x20));
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("http://localhost/api/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("readJsonBody", () => {
  it("parses a body within the limit", async () => {
    const request = new Request("http://localhost/api/x", { method: "POST", body: JSON.stringify({ action: "promote" }) });
    await expect(readJsonBody(request, 8_192)).resolves.toStrictEqual({ action: "promote" });
  });

  it("gives undefined for a body that is not JSON, for the schema to report", async () => {
    await expect(readJsonBody(new Request("http://localhost/", { method: "POST", body: "{" }), 8_192)).resolves.toBeUndefined();
  });

  it("refuses a declared length over the limit without reading", async () => {
    const { request, pulled } = streamingRequest(10, 1_024, { "content-length": "10240" });
    await expect(readJsonBody(request, 8_192)).rejects.toMatchObject({ code: "payload_too_large", status: 413 });
    expect(pulled()).toBe(0);
  });

  it("stops a streamed body as soon as it passes the limit", async () => {
    const { request } = streamingRequest(100_000, 1_024);
    const error = await readJsonBody(request, 8_192).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "payload_too_large", message: "the request body is larger than 8192 bytes" });
  });
});
