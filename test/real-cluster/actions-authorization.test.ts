import { describe } from "vitest";
import { realBackend, realBackendSkipReason } from "@/test/harness/real-backend";
import { actionsAuthorizationSuite } from "@/test/suites/actions-authorization";

/* Actions authorized by the real kube-apiserver's RBAC, carried out by the real controller (simulator: test/integration). */
describe.skipIf(realBackendSkipReason() !== null)("real cluster", () => actionsAuthorizationSuite(async () => realBackend()));
