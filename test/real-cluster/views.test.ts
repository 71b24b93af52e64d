import { describe } from "vitest";
import { realBackend, realBackendSkipReason } from "@/test/harness/real-backend";
import { viewsSuite } from "@/test/suites/views";

/* The overview and detail views on the real Argo Rollouts controller (test/integration/views-sim.test.ts: simulator). */
describe.skipIf(realBackendSkipReason() !== null)("real cluster", () => viewsSuite(async () => realBackend()));
