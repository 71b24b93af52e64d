import { describe, expect, it } from "vitest";
import { ALL_ROWS, NO_ROWS, parseStreamQuery, rowScopeCovers, streamPath } from "./stream";

const parse = (path: string) => parseStreamQuery(new URL(path, "http://x").searchParams);

describe("the stream's query", () => {
  it("carries every row unless the tab says whose rows it holds", () => {
    expect(parse("/api/stream").rows).toBe(ALL_ROWS);
    expect(parse("/api/stream?rows=*&rows=prod").rows).toBe(ALL_ROWS);
    expect(parse("/api/stream?rows=-").rows).toBe(NO_ROWS);
    expect(parse("/api/stream?rows=staging&rows=prod&rows=prod").rows).toEqual(["prod", "staging"]);
  });

  it("round-trips through the path the browser opens", () => {
    for (const rows of [ALL_ROWS, NO_ROWS, ["prod", "staging"]] as const) {
      const query = parse(streamPath(["prod/shop/checkout"], 42, rows));
      expect(query).toEqual({ focus: ["prod/shop/checkout"], rows, since: "42" });
    }
    expect(streamPath([], null)).toBe("/api/stream");
  });

  it("refuses more clusters than a page can show", () => {
    const many = Array.from({ length: 17 }, (_, i) => `rows=c${i}`).join("&");
    expect(() => parse(`/api/stream?${many}`)).toThrow();
  });

  it("tells whether a stream can go on for a new page without missing its rows", () => {
    expect(rowScopeCovers(ALL_ROWS, ["prod"])).toBe(true);
    expect(rowScopeCovers(["prod"], NO_ROWS)).toBe(true);
    expect(rowScopeCovers(["prod", "staging"], ["prod"])).toBe(true);
    expect(rowScopeCovers(["prod"], ["staging"])).toBe(false);
    expect(rowScopeCovers(NO_ROWS, ["prod"])).toBe(false);
    expect(rowScopeCovers(["prod"], ALL_ROWS)).toBe(false);
  });
});
