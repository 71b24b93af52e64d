import { describe, expect, it } from "vitest";
import { formatCount } from "./count";

describe("formatCount", () => {
  it("groups thousands the same way whatever the runtime's locale", () => {
    expect(formatCount(5000)).toBe("5,000");
    expect(formatCount(12)).toBe("12");
    expect(formatCount(1234567)).toBe("1,234,567");
  });
});
