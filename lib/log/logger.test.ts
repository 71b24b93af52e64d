import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { rememberSecrets } from "@/lib/errors/known-secrets";
import { writeConsoleCall } from "./console-bridge";
import { createLogger } from "./logger";
import { runInRequestContext } from "./request-context";

function capture(level: "debug" | "info" = "info") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const log = createLogger({ level, destination });
  return { log, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), text: () => lines.join("\n") };
}

describe("the JSON logger", () => {
  it("writes one JSON object per line with a level name and an ISO time", () => {
    const { log, records } = capture();
    log.info({ cluster: "prod" }, "watch connected");
    log.debug("not at info");
    expect(records()).toEqual([
      { level: "info", time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), cluster: "prod", msg: "watch connected" },
    ]);
  });

  it("names the request id in every line written while a request is handled", async () => {
    const { log, records } = capture();
    await runInRequestContext({ requestId: "req-1" }, async () => {
      log.info("before");
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.warn("after an await");
    });
    log.info("outside");
    expect(records().map((r) => r.reqId)).toEqual(["req-1", "req-1", undefined]);
  });

  it("scrubs credentials from messages, fields and errors (message and stack)", () => {
    rememberSecrets(["kubeconfig-token-5f3a9c"]);
    const { log, text, records } = capture();
    const err = new Error("GET https://admin:hunter2@api.example/apis failed with Bearer abc123def456 (kubeconfig-token-5f3a9c)");
    log.error(err);
    log.error({ err, headers: { authorization: "Bearer abc123def456" } }, "request failed: token=abc123def456");
    log.info("ok for %s", "https://admin:hunter2@api.example");
    for (const secret of ["hunter2", "abc123def456", "kubeconfig-token-5f3a9c"]) expect(text()).not.toContain(secret);
    expect(records()[0].err).toMatchObject({
      type: "Error",
      message: expect.stringContaining("[redacted]"),
      stack: expect.stringContaining("[redacted]"),
    });
  });
});

describe("console calls routed to the logger", () => {
  it("keep the message as console would format it and the error as `err`, scrubbed", () => {
    const { log, records } = capture();
    writeConsoleCall(log, "error", ["[%s] unhandled error", "req-9", new Error("connect failed: password=s3cr3t-value")]);
    writeConsoleCall(log, "log", ["Rollscope: auth mode none"]);
    const [failure, note] = records();
    expect(failure).toMatchObject({
      level: "error",
      msg: "[req-9] unhandled error",
      err: { message: "connect failed: password=[redacted]" },
    });
    expect(note).toMatchObject({ level: "info", msg: "Rollscope: auth mode none" });
  });
});
