import { describe, expect, it } from "vitest";
import { safeReturnTo } from "./return-to";

describe("safeReturnTo", () => {
  it.each([
    ["/rollouts/prod/shop/checkout", "/rollouts/prod/shop/checkout"],
    ["/?cluster=prod&phase=Paused", "/?cluster=prod&phase=Paused"],
    ["/audit#latest", "/audit#latest"],
    ["/a/../plugins", "/plugins"],
  ])("keeps the path on this site %s", (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });

  it.each([
    ["/\t/evil.example", "a tab the browser drops, leaving //evil.example"],
    ["/\n/evil.example", "a newline"],
    ["/\r\n/evil.example", "CR LF"],
    ["/\\evil.example", "a backslash, read as a slash"],
    ["/\\/evil.example", "slash backslash"],
    ["//evil.example", "a protocol-relative URL"],
    ["///evil.example", "three slashes"],
    ["/.//evil.example", "a dot segment that collapses to //"],
    ["https://evil.example/", "an absolute URL"],
    ["javascript:alert(1)", "a script URL"],
    ["evil.example", "a bare name"],
    ["/\u0000/x", "a NUL"],
    ["", "nothing"],
  ])("sends %j (%s) to /", (value) => {
    expect(safeReturnTo(value)).toBe("/");
  });

  it("treats a missing value as /", () => {
    expect(safeReturnTo(null)).toBe("/");
    expect(safeReturnTo(undefined)).toBe("/");
  });
});
