import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VALUES_SCHEMA_PATH, valuesSchemaWithConfig } from "./config-schema";

describe("the Helm chart's values schema", () => {
  it("carries the configuration schema the server validates with (run `npx tsx scripts/chart/config-schema.ts` after changing lib/config)", () => {
    const committed = readFileSync(VALUES_SCHEMA_PATH, "utf8");
    expect(committed).toBe(valuesSchemaWithConfig(committed));
  });
});
