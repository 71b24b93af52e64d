import type { RolloutResource } from "./schema";

export type BuiltinRouterName = "Istio" | "Nginx" | "ALB" | "SMI" | "Ambassador" | "AppMesh" | "Traefik" | "Apisix";

export type TrafficRouter = { kind: "builtin"; name: BuiltinRouterName } | { kind: "plugin"; name: string };

// Reconcile order of the built-in routers in `rollout/trafficrouting.go`; plugins follow in random map order,
// so we sort them for a stable display.
const BUILTIN_ROUTERS = [
  ["istio", "Istio"],
  ["nginx", "Nginx"],
  ["alb", "ALB"],
  ["smi", "SMI"],
  ["ambassador", "Ambassador"],
  ["appMesh", "AppMesh"],
  ["traefik", "Traefik"],
  ["apisix", "Apisix"],
] as const;

export function listTrafficRouters(rollout: RolloutResource): TrafficRouter[] {
  const routing = rollout.spec?.strategy?.canary?.trafficRouting;
  if (!routing) return [];
  const builtins: TrafficRouter[] = BUILTIN_ROUTERS.filter(([key]) => routing[key] != null).map(([, name]) => ({
    kind: "builtin",
    name,
  }));
  const plugins: TrafficRouter[] = Object.keys(routing.plugins ?? {})
    .sort()
    .map((name) => ({ kind: "plugin", name }));
  return [...builtins, ...plugins];
}

/** Step-plugin names used by `plugin` steps, unique and sorted. */
export function listPluginStepNames(rollout: RolloutResource): string[] {
  const steps = rollout.spec?.strategy?.canary?.steps ?? [];
  const names = steps.flatMap((step) => (step.plugin ? [step.plugin.name] : []));
  return [...new Set(names)].sort();
}
