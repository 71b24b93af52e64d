export type { ApiServerHandle, ApiServerOptions, Faults, RbacBinding, RbacRule, SimUser } from "./types";
export { startApiServer } from "./server";
export type { ServiceProxyResolver } from "./service-proxy";
