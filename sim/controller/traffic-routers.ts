import type { ObjectStore } from "../store/object-store";
import type { Prng } from "./prng";
import { SAMPLE_NGINX_PLUGIN, sampleNginxSetWeight } from "./sample-nginx-plugin";
import { defaultVerifyMode, pluginType, type PluginProfile } from "./plugin-profiles";
import type { CanaryStep, Rollout } from "./types";

export type RpcOutcome = "success" | "error" | "not_implemented";

/** What the data plane of one router does for one rollout; the traffic simulator reads `measuredWeight`. */
export interface AppliedRoute {
  weight: number;
  measuredWeight: number;
  canaryHash: string;
  stableHash: string;
  headerRoutes: string[];
  mirrorRoutes: string[];
}

export interface RouterEnv {
  /** The cluster's objects, for routers that edit them (upstream's sample plugin edits an Ingress). */
  store: ObjectStore;
  isRegistered(plugin: string): boolean;
  profile(plugin: string): PluginProfile;
  prng: Prng;
  /** Plugin names whose (simulated) process is running; cleared by a controller restart. */
  started: Set<string>;
  observeRpc(plugin: string, method: string, outcome: RpcOutcome, latencyMs: number): void;
  event(type: "Normal" | "Warning", reason: string, message: string): void;
  applied(routerKey: string): AppliedRoute | undefined;
  setApplied(routerKey: string, route: AppliedRoute): void;
}

export interface VerifyResult {
  /** undefined = NotImplemented (weights.verified absent). */
  verified: boolean | undefined;
  error?: string;
}

/** `trafficrouting.TrafficRoutingReconciler`: every method returns an error string or null. */
export interface TrafficRouter {
  /** The key weights are kept under: "Istio", "Nginx" or the plugin name. */
  readonly key: string;
  readonly isPlugin: boolean;
  type(): string;
  updateHash(canaryHash: string, stableHash: string): string | null;
  setWeight(desiredWeight: number): string | null;
  setHeaderRoute(route: NonNullable<CanaryStep["setHeaderRoute"]>): string | null;
  setMirrorRoute(route: NonNullable<CanaryStep["setMirrorRoute"]>): string | null;
  verifyWeight(desiredWeight: number): VerifyResult;
  removeManagedRoutes(): string | null;
}

function emptyRoute(): AppliedRoute {
  return { weight: 0, measuredWeight: 0, canaryHash: "", stableHash: "", headerRoutes: [], mirrorRoutes: [] };
}

abstract class BaseRouter implements TrafficRouter {
  abstract readonly key: string;
  abstract readonly isPlugin: boolean;
  constructor(
    protected readonly ro: Rollout,
    protected readonly env: RouterEnv,
  ) {}
  abstract type(): string;

  protected route(): AppliedRoute {
    return this.env.applied(this.key) ?? emptyRoute();
  }

  updateHash(canaryHash: string, stableHash: string): string | null {
    this.env.setApplied(this.key, { ...this.route(), canaryHash, stableHash });
    return null;
  }

  setWeight(desiredWeight: number): string | null {
    const route = this.route();
    this.env.setApplied(this.key, { ...route, weight: desiredWeight, measuredWeight: desiredWeight });
    return null;
  }

  setHeaderRoute(route: NonNullable<CanaryStep["setHeaderRoute"]>): string | null {
    const current = this.route();
    if (!current.headerRoutes.includes(route.name)) {
      this.env.setApplied(this.key, { ...current, headerRoutes: [...current.headerRoutes, route.name] });
    }
    return null;
  }

  setMirrorRoute(route: NonNullable<CanaryStep["setMirrorRoute"]>): string | null {
    const current = this.route();
    if (!current.mirrorRoutes.includes(route.name)) {
      this.env.setApplied(this.key, { ...current, mirrorRoutes: [...current.mirrorRoutes, route.name] });
    }
    return null;
  }

  verifyWeight(_desiredWeight: number): VerifyResult {
    return { verified: undefined };
  }

  removeManagedRoutes(): string | null {
    const current = this.route();
    if (current.headerRoutes.length || current.mirrorRoutes.length) {
      this.env.setApplied(this.key, { ...current, headerRoutes: [], mirrorRoutes: [] });
    }
    return null;
  }
}

/** `rollout/trafficrouting/istio`: edits the VirtualService; VerifyWeight is not implemented. */
class IstioRouter extends BaseRouter {
  readonly key = "Istio";
  readonly isPlugin = false;
  type(): string {
    return "Istio";
  }
  override setWeight(desiredWeight: number): string | null {
    const before = this.env.applied(this.key);
    super.setWeight(desiredWeight);
    if (!before || before.weight !== desiredWeight) {
      const istio = this.ro.spec.strategy.canary?.trafficRouting?.istio;
      const names = istio?.virtualServices?.map((v) => v.name) ?? [istio?.virtualService?.name ?? this.ro.metadata.name];
      for (const vs of names)
        this.env.event("Normal", "Updated VirtualService", `VirtualService \`${vs}\` set to desiredWeight '${desiredWeight}'`);
    }
    return null;
  }
}

/** `rollout/trafficrouting/nginx`: creates and patches the `<rollout>-<stableIngress>-canary` Ingress. */
class NginxRouter extends BaseRouter {
  readonly key = "Nginx";
  readonly isPlugin = false;
  type(): string {
    return "Nginx";
  }
  override setWeight(desiredWeight: number): string | null {
    const before = this.env.applied(this.key);
    super.setWeight(desiredWeight);
    const nginx = this.ro.spec.strategy.canary?.trafficRouting?.nginx;
    const stableIngresses = nginx?.stableIngresses ?? [nginx?.stableIngress ?? this.ro.metadata.name];
    for (const ingress of stableIngresses) {
      const canaryIngress = `${this.ro.metadata.name}-${ingress}-canary`;
      if (!before) {
        this.env.event("Normal", "CreatingCanaryIngress", `Creating canary ingress \`${canaryIngress}\` with weight \`${desiredWeight}\``);
      } else if (before.weight !== desiredWeight) {
        this.env.event("Normal", "PatchingCanaryIngress", `Updating Ingress \`${canaryIngress}\` to desiredWeight '${desiredWeight}'`);
      }
    }
    return null;
  }
}

/**
 * `rollout/trafficrouting/plugin`: every method is an RPC to the plugin process. Errors come back wrapped the
 * way the controller wraps them (`failed to set weight via plugin: ...`).
 */
class PluginRouter extends BaseRouter {
  readonly isPlugin = true;
  constructor(
    ro: Rollout,
    env: RouterEnv,
    readonly key: string,
  ) {
    super(ro, env);
  }

  private get profile(): PluginProfile {
    return this.env.profile(this.key);
  }

  protected rpc(method: string, failure: string | undefined, outcome?: RpcOutcome): string | null {
    const result: RpcOutcome = outcome ?? (failure ? "error" : "success");
    this.env.observeRpc(this.key, method, result, this.profile.latencyMs ?? 0);
    return result === "error" ? (failure ?? "rpc error") : null;
  }

  type(): string {
    this.rpc("Type", undefined);
    return pluginType(this.key);
  }

  override updateHash(canaryHash: string, stableHash: string): string | null {
    const err = this.rpc("UpdateHash", this.profile.updateHashFailure);
    if (err) return `failed to update hash via plugin: ${err}`;
    return super.updateHash(canaryHash, stableHash);
  }

  override setWeight(desiredWeight: number): string | null {
    if (this.key === SAMPLE_NGINX_PLUGIN) {
      const err = this.rpc("SetWeight", sampleNginxSetWeight(this.env.store, this.ro, desiredWeight) ?? undefined);
      if (err) return `failed to set weight via plugin: ${err}`;
      this.env.setApplied(this.key, { ...this.route(), weight: desiredWeight, measuredWeight: desiredWeight });
      return null;
    }
    const profile = this.profile;
    const fails = (profile.setWeightFailureRate ?? 0) > 0 && this.env.prng.chance(profile.setWeightFailureRate ?? 0);
    const message = profile.setWeightError ?? defaultSetWeightError(this.key);
    const err = this.rpc("SetWeight", fails ? message : undefined);
    if (err) return `failed to set weight via plugin: ${err}`;
    const route = this.route();
    let measured = desiredWeight;
    if (profile.stuckRouter === "half") measured = Math.round((this.ro.spec.strategy.canary?.trafficRouting?.maxTrafficWeight ?? 100) / 2);
    else if (profile.stuckRouter === "old") measured = route.measuredWeight;
    this.env.setApplied(this.key, { ...route, weight: desiredWeight, measuredWeight: measured });
    return null;
  }

  override setHeaderRoute(route: NonNullable<CanaryStep["setHeaderRoute"]>): string | null {
    const err = this.rpc("SetHeaderRoute", this.profile.headerRouteFailure);
    if (err) return `failed to set header route via plugin: ${err}`;
    return super.setHeaderRoute(route);
  }

  override setMirrorRoute(route: NonNullable<CanaryStep["setMirrorRoute"]>): string | null {
    const err = this.rpc("SetMirrorRoute", this.profile.mirrorRouteFailure);
    if (err) return `failed to set mirror route via plugin: ${err}`;
    return super.setMirrorRoute(route);
  }

  override verifyWeight(desiredWeight: number): VerifyResult {
    const mode = this.profile.verifyWeight ?? defaultVerifyMode(this.key);
    switch (mode) {
      case "notImplemented":
        this.rpc("VerifyWeight", undefined, "not_implemented");
        return { verified: undefined };
      case "error": {
        const err = this.profile.verifyError ?? `rpc error: timed out reading weights of ${pluginType(this.key)} routes`;
        this.rpc("VerifyWeight", err);
        return { verified: undefined, error: `failed to verify weight via plugin: ${err}` };
      }
      case "notVerified":
        this.rpc("VerifyWeight", undefined);
        return { verified: false };
      case "measured": {
        this.rpc("VerifyWeight", undefined);
        const route = this.route();
        return { verified: route.weight === desiredWeight && route.measuredWeight === desiredWeight };
      }
      default:
        this.rpc("VerifyWeight", undefined);
        return { verified: true };
    }
  }

  override removeManagedRoutes(): string | null {
    const err = this.rpc("RemoveManagedRoutes", this.profile.removeManagedRoutesFailure);
    if (err) return `failed to remove managed routes via plugin: ${err}`;
    return super.removeManagedRoutes();
  }
}

function defaultSetWeightError(plugin: string): string {
  const type = pluginType(plugin);
  return `${type}: the server rejected our request due to an error in our request (put ${type.toLowerCase()}routes)`;
}

/**
 * `GetTrafficPlugin` + `NewReconciler` (`rollout/trafficrouting/plugin/client`): lazy start (InitPlugin, Ping) on
 * first use, Ping on every later reconcile; errors are wrapped exactly as upstream wraps them.
 */
function startPlugin(name: string, env: RouterEnv): string | null {
  const wrap = (err: string) => `failed to get traffic router plugin ${name}: unable to start plugin system: ${err}`;
  if (!env.isRegistered(name)) return wrap(`unable to find plugin (${name}): plugin ${name} not configured in configmap`);
  const profile = env.profile(name);
  const latency = profile.latencyMs ?? 0;
  if (!env.started.has(name)) {
    if (profile.startFailure) return wrap(`unable to get plugin client (${name}): ${profile.startFailure}`);
    env.observeRpc(name, "InitPlugin", "success", latency);
  }
  if (profile.pingFailure) {
    env.started.delete(name);
    return wrap(`could not ping plugin will cleanup process so we can restart it next reconcile (${profile.pingFailure})`);
  }
  env.started.add(name);
  return null;
}

/**
 * `NewTrafficRoutingReconciler`: built-ins first (Istio, then Nginx), then plugins. Upstream iterates the plugins
 * map in Go's random order; the simulator uses the spec's key order so runs replay.
 */
export function newTrafficRouters(ro: Rollout, env: RouterEnv): { routers: TrafficRouter[]; error?: string } {
  const tr = ro.spec.strategy.canary?.trafficRouting;
  if (!tr) return { routers: [] };
  const routers: TrafficRouter[] = [];
  if (tr.istio) routers.push(new IstioRouter(ro, env));
  if (tr.nginx) routers.push(new NginxRouter(ro, env));
  for (const name of Object.keys(tr.plugins ?? {})) {
    const error = startPlugin(name, env);
    if (error) return { routers, error };
    routers.push(new PluginRouter(ro, env, name));
  }
  return { routers };
}

/** The router whose data plane the traffic simulator follows: the first configured. */
export function primaryRouterKey(ro: Rollout): string | null {
  const tr = ro.spec.strategy.canary?.trafficRouting;
  if (!tr) return null;
  if (tr.istio) return "Istio";
  if (tr.nginx) return "Nginx";
  return Object.keys(tr.plugins ?? {})[0] ?? null;
}

/** `getStrategyAndTrafficRouter` (`controller/metrics/rollouts.go`): built-ins only, "" for plugins; last match wins. */
export function metricsTrafficRouter(ro: Rollout): string {
  const tr = ro.spec.strategy.canary?.trafficRouting;
  if (!tr) return "";
  let router = "";
  if (tr.alb) router = "ALB";
  if (tr.ambassador) router = "Ambassador";
  if (tr.istio) router = "Istio";
  if (tr.nginx) router = "Nginx";
  if (tr.smi) router = "SMI";
  if (tr.appMesh) router = "AppMesh";
  return router;
}
