export type { ApiServerHandle, ApiServerOptions, Faults, RbacBinding, RbacRule, SimUser } from "./types";
export { startApiServer } from "./server";
export { PROXY_TARGET_ANNOTATION, serviceProxyFromStore, type ServiceProxyResolver } from "./service-proxy";
export { SUPERUSER_GROUP } from "./rbac";
