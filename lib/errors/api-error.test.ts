import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";

describe("ApiError", () => {
  it("is recognised when thrown by another copy of its module (as a production build has per bundle)", async () => {
    vi.resetModules();
    const copy = await import("./api-error");
    expect(copy.ApiError).not.toBe(ApiError);
    const thrown = new copy.ApiError("not_found", 'no cluster named "nowhere" is configured');
    expect(thrown instanceof ApiError).toBe(true);
    expect(new Error("plain") instanceof ApiError).toBe(false);
    expect({ code: "not_found", status: 404 } instanceof ApiError).toBe(false);
  });
});
