import { describe, expect, it } from "vitest";
import { buttonClasses } from "./button";
import { cn } from "./cn";

describe("cn", () => {
  it("skips falsy parts", () => {
    expect(cn("px-2", false, null, undefined, "py-1")).toBe("px-2 py-1");
  });

  it("lets a later class override an earlier one of the same kind, per variant", () => {
    expect(cn("bg-sky-600 dark:bg-sky-500 text-sm", "bg-rose-600 dark:bg-rose-500")).toBe("text-sm bg-rose-600 dark:bg-rose-500");
  });

  it("lets a caller's className override a button variant", () => {
    const classes = buttonClasses("primary", "bg-rose-700 px-2 py-0.5 text-xs").split(" ");
    expect(classes).toContain("bg-rose-700");
    expect(classes).not.toContain("bg-sky-700");
    expect(classes).toContain("text-xs");
    expect(classes).not.toContain("text-sm");
  });
});
