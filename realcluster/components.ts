import path from "node:path";

/** The folder of the Go modules (realcluster/). */
export const GO_MODULES_DIR = import.meta.dirname;

export const KUBERNETES_VERSION = "v1.34.12";
export const ARGO_ROLLOUTS_VERSION = "v1.9.1";

/** One `go build` invocation: every package of a group shares the module and the linker flags. */
export interface BuildGroup {
  /** The tools module (a folder of realcluster/). */
  module: string;
  /** Binary name → main package. */
  binaries: Record<string, string>;
  ldflags: string;
}

function versionFlags(packages: string[], version: string, extra: Record<string, string> = {}): string {
  const sets = packages.flatMap((pkg) => Object.entries({ gitVersion: version, ...extra }).map(([k, v]) => `-X ${pkg}.${k}=${v}`));
  return ["-s", "-w", ...sets].join(" ");
}

/** Version ldflags as upstream sets them: without them `/version` answers `v0.0.0-master+$Format:%H$`. */
const KUBE_LDFLAGS = versionFlags(["k8s.io/component-base/version", "k8s.io/client-go/pkg/version"], KUBERNETES_VERSION, {
  gitMajor: "1",
  gitMinor: "34",
  gitTreeState: "clean",
});

/** As argo-rollouts' Makefile sets them for a release (commit: the v1.9.1 tag, as the module proxy reports it). */
const ARGO_LDFLAGS = [
  "-s -w",
  "-X github.com/argoproj/argo-rollouts/utils/version.version=1.9.1",
  "-X github.com/argoproj/argo-rollouts/utils/version.gitTag=v1.9.1",
  "-X github.com/argoproj/argo-rollouts/utils/version.gitCommit=b6bd3bcf8f60d717a98763d26acc983db7f97cb0",
  "-X github.com/argoproj/argo-rollouts/utils/version.gitTreeState=clean",
].join(" ");

export const BUILD_GROUPS: BuildGroup[] = [
  {
    module: "k8s",
    binaries: {
      "kube-apiserver": "k8s.io/kubernetes/cmd/kube-apiserver",
      "kube-controller-manager": "k8s.io/kubernetes/cmd/kube-controller-manager",
      "kube-scheduler": "k8s.io/kubernetes/cmd/kube-scheduler",
      // The harness applies manifests with a kubectl of the server's own version.
      kubectl: "k8s.io/kubernetes/cmd/kubectl",
    },
    ldflags: KUBE_LDFLAGS,
  },
  // etcd's main package is the module root: built alone so that the binary is not named "v3".
  { module: "k8s", binaries: { etcd: "go.etcd.io/etcd/server/v3" }, ldflags: "-s -w" },
  {
    module: "rollouts",
    binaries: {
      "rollouts-controller": "github.com/argoproj/argo-rollouts/cmd/rollouts-controller",
      "kubectl-argo-rollouts": "github.com/argoproj/argo-rollouts/cmd/kubectl-argo-rollouts",
      // Upstream's own sample traffic-router plugin (its e2e tests use it): drives an nginx-style canary Ingress.
      "trafficrouter-plugin-sample": "github.com/argoproj/argo-rollouts/test/cmd/trafficrouter-plugin-sample",
    },
    ldflags: ARGO_LDFLAGS,
  },
  { module: "kwok", binaries: { kwok: "sigs.k8s.io/kwok/cmd/kwok" }, ldflags: "-s -w" },
];

export const MODULES = ["k8s", "rollouts", "kwok", "crds"] as const;

/** YAML taken from the module cache at build time: (module folder, Go module, files inside it, target name). */
export interface ManifestSource {
  module: (typeof MODULES)[number];
  goModule: string;
  files: string[];
  /** Written as one multi-document file under the cache's manifests/. */
  target: string;
}

export const MANIFEST_SOURCES: ManifestSource[] = [
  {
    module: "rollouts",
    goModule: "github.com/argoproj/argo-rollouts",
    files: [
      "rollout-crd.yaml",
      "analysis-run-crd.yaml",
      "analysis-template-crd.yaml",
      "cluster-analysis-template-crd.yaml",
      "experiment-crd.yaml",
    ].map((f) => path.join("manifests/crds", f)),
    target: "argo-rollouts-crds.yaml",
  },
  {
    module: "crds",
    goModule: "sigs.k8s.io/gateway-api",
    files: ["config/crd/standard/gateway.networking.k8s.io_httproutes.yaml"],
    target: "gateway-api-crds.yaml",
  },
  {
    // kwok v0.8.0 has no built-in stages any more: these are the "fast" node and pod stages kwokctl uses.
    module: "kwok",
    goModule: "sigs.k8s.io/kwok",
    files: [
      "kustomize/stage/node/fast/node-initialize.yaml",
      "kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
      "kustomize/stage/pod/fast/pod-ready.yaml",
      "kustomize/stage/pod/fast/pod-complete.yaml",
      "kustomize/stage/pod/fast/pod-delete.yaml",
    ],
    target: "kwok-stages.yaml",
  },
];

export const BINARIES = BUILD_GROUPS.flatMap((g) => Object.keys(g.binaries));

/**
 * Traefik, the real cluster's proxy, from its own tools module (realcluster/traefik) and into a cache entry of its
 * own, outside BUILD_GROUPS: adding it there would change the toolchain's hash and rebuild Kubernetes.
 * v3.7.10: the newest v3.7 release whose dependency graph the module proxy serves (see realcluster/traefik/go.mod).
 */
const TRAEFIK_VERSION = "v3.7.10";
export const TRAEFIK_BUILD: BuildGroup = {
  module: "traefik",
  binaries: { traefik: "github.com/traefik/traefik/v3/cmd/traefik" },
  ldflags: `-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=${TRAEFIK_VERSION}`,
};
