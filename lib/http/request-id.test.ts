import { describe, expect, it } from "vitest";
import { assignRequestIds, requestIdHeaders } from "./request-id";

describe("assignRequestIds", () => {
  it("generates the request id, and keeps a client's plain-token x-request-id only as correlation id", () => {
    const ids = assignRequestIds(new Headers({ "x-request-id": "ticket-4711" }));
    expect(ids.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids.requestId).not.toBe("ticket-4711");
    expect(ids.correlationId).toBe("ticket-4711");
    expect(requestIdHeaders(ids)).toStrictEqual({ "x-request-id": ids.requestId, "x-correlation-id": "ticket-4711" });
  });

  it("drops a correlation id that is not a plain token", () => {
    expect(assignRequestIds(new Headers({ "x-request-id": "<img src=x>" })).correlationId).toBeNull();
    expect(assignRequestIds(new Headers({ "x-request-id": "a".repeat(129) })).correlationId).toBeNull();
    expect(assignRequestIds(new Headers()).correlationId).toBeNull();
  });

  it("never repeats a request id", () => {
    const headers = new Headers({ "x-request-id": "same" });
    expect(assignRequestIds(headers).requestId).not.toBe(assignRequestIds(headers).requestId);
  });
});
