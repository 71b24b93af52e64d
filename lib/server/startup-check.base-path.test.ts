import { describe, expect, it } from "vitest";
import { checkBasePath } from "./startup-check";

describe("checkBasePath", () => {
  it("accepts the prefix the build serves", () => {
    expect(() => checkBasePath("/rollscope", "/rollscope")).not.toThrow();
    expect(() => checkBasePath("", "")).not.toThrow();
  });

  it("refuses a configured prefix the build does not serve, saying how to build it", () => {
    expect(() => checkBasePath("/rollscope", "")).toThrow(
      'server.basePath is "/rollscope" but this build serves at the root: build with ROLLSCOPE_BASE_PATH=/rollscope',
    );
    expect(() => checkBasePath("", "/rollscope")).toThrow('server.basePath is "" but this build serves under /rollscope');
  });
});
