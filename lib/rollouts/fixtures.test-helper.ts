import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { parseRollout, type RolloutResource } from "./schema";

const FIXTURE_DIR = path.resolve(import.meta.dirname, "../../test/fixtures/rollouts");

/** The instant all time-dependent fixtures are written against. */
export const FIXTURE_NOW = new Date("2026-08-18T09:45:00Z");

export function listRolloutFixtureNames(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((file) => file.endsWith(".yaml"))
    .map((file) => file.replace(/\.yaml$/, ""))
    .sort();
}

export function readRolloutFixture(name: string): unknown {
  return parse(readFileSync(path.join(FIXTURE_DIR, `${name}.yaml`), "utf8"));
}

export function loadRolloutFixture(name: string): RolloutResource {
  const result = parseRollout(readRolloutFixture(name));
  if (!result.ok) throw new Error(`fixture ${name} does not parse: ${result.error}`);
  return result.rollout;
}

/** A deep copy of a fixture with a patch applied, for edge cases that differ in one field. */
export function loadRolloutFixtureWith(name: string, patch: (rollout: RolloutResource) => void): RolloutResource {
  const rollout = structuredClone(loadRolloutFixture(name));
  patch(rollout);
  return rollout;
}
