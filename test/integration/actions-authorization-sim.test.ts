import { simBackend } from "@/test/harness/backend";
import { actionsAuthorizationSuite } from "@/test/suites/actions-authorization";

/* Actions authorized by RBAC on the simulator; test/real-cluster/actions-authorization.test.ts: the real API server. */
actionsAuthorizationSuite(simBackend);
