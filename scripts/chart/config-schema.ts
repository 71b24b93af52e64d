import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { rollscopeConfigSchema } from "../../lib/config/schema";

/**
 * The Helm chart's `config` value is Rollscope's configuration file, so its JSON schema is generated from the zod
 * schema the server validates with (as written, before defaults): a wrong type fails `helm install`, not the pod.
 * Refinements JSON Schema cannot say (one of kubeconfig/inCluster, duplicate names) are still checked at start-up.
 *
 *   npx tsx scripts/chart/config-schema.ts        # rewrites $defs.rollscopeConfig in values.schema.json
 */
export const VALUES_SCHEMA_PATH = path.resolve(import.meta.dirname, "../../charts/rollscope/values.schema.json");

function generatedConfigSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(rollscopeConfigSchema, { io: "input", unrepresentable: "any" });
  return schema;
}

export function valuesSchemaWithConfig(current: string): string {
  const values = JSON.parse(current) as { $defs: Record<string, unknown> };
  values.$defs.rollscopeConfig = generatedConfigSchema();
  return `${JSON.stringify(values, null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  writeFileSync(VALUES_SCHEMA_PATH, valuesSchemaWithConfig(readFileSync(VALUES_SCHEMA_PATH, "utf8")));
  console.log(`wrote ${path.relative(process.cwd(), VALUES_SCHEMA_PATH)}`);
}
