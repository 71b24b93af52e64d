import type { KubeObject, ObjectStore } from "../store/object-store";
import { T } from "./resource-types";
import type { Rollout } from "./types";

/**
 * What upstream's sample traffic-router plugin (`test/cmd/trafficrouter-plugin-sample`, registered as
 * `argoproj/sample-nginx`; the real cluster runs it) does on SetWeight: keeps a canary copy of the stable Ingress,
 * `<rollout>-<stableIngress>-canary`, owned by the Rollout, its stable-Service backends pointed at the canary Service
 * and annotated with the canary weight. Returns the plugin's error text, or null.
 */
export const SAMPLE_NGINX_PLUGIN = "argoproj/sample-nginx";
const ANNOTATION_PREFIX = "nginx.ingress.kubernetes.io";

interface IngressPath {
  backend?: { service?: { name?: string } };
}
interface IngressRule {
  http?: { paths?: IngressPath[] };
}

function canaryRules(stable: KubeObject, stableService: string, canaryService: string): IngressRule[] {
  const rules = structuredClone(((stable.spec ?? {}) as { rules?: IngressRule[] }).rules ?? []);
  return rules.filter((rule) => {
    let uses = false;
    for (const path of rule.http?.paths ?? []) {
      if (path.backend?.service?.name === stableService) {
        uses = true;
        path.backend.service.name = canaryService;
      }
    }
    return uses;
  });
}

export function sampleNginxSetWeight(store: ObjectStore, ro: Rollout, desiredWeight: number): string | null {
  const ns = ro.metadata.namespace;
  const canary = ro.spec.strategy.canary;
  const config = (canary?.trafficRouting?.plugins?.[SAMPLE_NGINX_PLUGIN] ?? {}) as { stableIngress?: string };
  const stableName = config.stableIngress ?? "";
  const stable = store.tryGet(T.ingresses, ns, stableName);
  if (!stable) return `error retrieving stableIngress \`${stableName}\` from cache: ingress.networking.k8s.io "${stableName}" not found`;
  const name = `${ro.metadata.name}-${stableName}`.slice(0, 253 - "-canary".length) + "-canary";
  const rules = canaryRules(stable, canary?.stableService ?? "", canary?.canaryService ?? "");
  // The sample's message names a fixed "canary-demo" whatever the Ingress is called.
  if (rules.length === 0) return `ingress \`canary-demo\` has no rules using service ${canary?.stableService ?? ""} backend`;
  const annotations: Record<string, string> = {
    [`${ANNOTATION_PREFIX}/canary`]: "true",
    [`${ANNOTATION_PREFIX}/canary-weight`]: String(desiredWeight),
  };
  const ingressClass = stable.metadata.annotations?.["kubernetes.io/ingress.class"];
  if (ingressClass) annotations["kubernetes.io/ingress.class"] = ingressClass;
  const existing = store.tryGet(T.ingresses, ns, name);
  if (!existing) {
    store.create(T.ingresses, ns, {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: {
        name,
        namespace: ns,
        annotations,
        ownerReferences: [
          { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", name: ro.metadata.name, uid: ro.metadata.uid ?? "", controller: true },
        ],
      },
      spec: { rules },
    });
    return null;
  }
  if (!existing.metadata.ownerReferences?.some((o) => o.controller && o.uid === ro.metadata.uid))
    return `canary ingress \`${name}\` controlled by different object`;
  if (existing.metadata.annotations?.[`${ANNOTATION_PREFIX}/canary-weight`] === String(desiredWeight)) return null;
  store.update(T.ingresses, ns, name, (draft) => {
    draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), ...annotations };
    draft.spec = { ...(draft.spec ?? {}), rules };
  });
  return null;
}
