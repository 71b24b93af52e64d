// Gateway API CRDs (HTTPRoute) for the real cluster: only the module's YAML is used, nothing is compiled, so
// there is no `go mod tidy` here (it would drop the unused requirement); go.sum pins the module's content.
module rollscope.local/realcluster/crds

go 1.26.0

require sigs.k8s.io/gateway-api v1.4.1
