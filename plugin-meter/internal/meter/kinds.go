package meter

import (
	"fmt"
	"net/rpc"

	goPlugin "github.com/hashicorp/go-plugin"

	// Registers the metric provider's argument types with gob, so that the meter can decode them.
	_ "github.com/argoproj/argo-rollouts/metricproviders/plugin/rpc"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	routerrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"
)

// Kind is one of Argo Rollouts' three plugin kinds, with the handshake and names its controller uses
// (v1.9.1 rollout/trafficrouting/plugin/client, metricproviders/plugin/client, rollout/steps/plugin/client).
type Kind struct {
	// Name is the `kind` label and the --kind flag's value.
	Name string
	// CookieValue is the ARGO_ROLLOUTS_RPC_PLUGIN value of the handshake.
	CookieValue string
	// Dispense is the name the controller dispenses.
	Dispense string
	// Methods are the RPC methods of the kind's net/rpc server, without "Plugin.".
	Methods   []string
	newServer func(f *Forwarder) any
}

// Handshake is the kind's go-plugin handshake, as the controller and the plugins declare it.
func (k *Kind) Handshake() goPlugin.HandshakeConfig {
	return goPlugin.HandshakeConfig{ProtocolVersion: 1, MagicCookieKey: "ARGO_ROLLOUTS_RPC_PLUGIN", MagicCookieValue: k.CookieValue}
}

var (
	TrafficRouter = &Kind{
		Name:        "trafficRouter",
		CookieValue: "trafficrouter",
		Dispense:    "RpcTrafficRouterPlugin",
		Methods:     []string{"InitPlugin", "UpdateHash", "SetWeight", "SetHeaderRoute", "SetMirrorRoute", "Type", "VerifyWeight", "RemoveManagedRoutes"},
		newServer:   func(f *Forwarder) any { return &trafficRouterServer{f} },
	}
	MetricProvider = &Kind{
		Name:        "metricProvider",
		CookieValue: "metricprovider",
		Dispense:    "RpcMetricProviderPlugin",
		Methods:     []string{"InitPlugin", "Run", "Resume", "Terminate", "GarbageCollect", "Type", "GetMetadata"},
		newServer:   func(f *Forwarder) any { return &metricProviderServer{f} },
	}
	Step = &Kind{
		Name:        "step",
		CookieValue: "step",
		Dispense:    "RpcStepPlugin",
		Methods:     []string{"InitPlugin", "Run", "Terminate", "Abort", "Type"},
		newServer:   func(f *Forwarder) any { return &stepServer{f} },
	}
	// Kinds in the order of metrics.json.
	Kinds = []*Kind{TrafficRouter, MetricProvider, Step}
)

// KindNamed returns the kind whose Name is name.
func KindNamed(name string) (*Kind, error) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, nil
		}
	}
	return nil, fmt.Errorf("unknown --kind %q (trafficRouter, metricProvider or step)", name)
}

// ServerPlugin is what the meter serves to the controller: the kind's net/rpc method set, each method forwarded.
type ServerPlugin struct{ Forwarder *Forwarder }

func (p *ServerPlugin) Server(*goPlugin.MuxBroker) (any, error) {
	return p.Forwarder.kind.newServer(p.Forwarder), nil
}

func (p *ServerPlugin) Client(*goPlugin.MuxBroker, *rpc.Client) (any, error) {
	return nil, fmt.Errorf("the meter serves its plugin; it is not dispensed by a client")
}

// ChildPlugin is how the meter dispenses the real plugin: the bare net/rpc client, so that each call goes out with
// the controller's arguments and comes back as the plugin's reply or error, untouched by upstream's client wrappers.
type ChildPlugin struct{}

func (ChildPlugin) Server(*goPlugin.MuxBroker) (any, error) {
	return nil, fmt.Errorf("the meter does not serve its child")
}

func (ChildPlugin) Client(_ *goPlugin.MuxBroker, c *rpc.Client) (any, error) { return c, nil }

// The servers below have upstream's method set and reply types (rpc.go of each kind); every method forwards the
// decoded arguments and returns the child's reply or error as it came, and says which replies count as errors.

func rpcErrorFailed(e *types.RpcError) func() bool { return func() bool { return e.HasError() } }

func never() bool { return false }

type trafficRouterServer struct{ f *Forwarder }

func (s *trafficRouterServer) InitPlugin(args any, resp *types.RpcError) error {
	return s.f.Call("InitPlugin", args, resp, rpcErrorFailed(resp))
}
func (s *trafficRouterServer) UpdateHash(args any, resp *types.RpcError) error {
	return s.f.Call("UpdateHash", args, resp, rpcErrorFailed(resp))
}
func (s *trafficRouterServer) SetWeight(args any, resp *types.RpcError) error {
	return s.f.Call("SetWeight", args, resp, rpcErrorFailed(resp))
}
func (s *trafficRouterServer) SetHeaderRoute(args any, resp *types.RpcError) error {
	return s.f.Call("SetHeaderRoute", args, resp, rpcErrorFailed(resp))
}
func (s *trafficRouterServer) SetMirrorRoute(args any, resp *types.RpcError) error {
	return s.f.Call("SetMirrorRoute", args, resp, rpcErrorFailed(resp))
}
func (s *trafficRouterServer) Type(args any, resp *string) error {
	return s.f.Call("Type", args, resp, never)
}
func (s *trafficRouterServer) VerifyWeight(args any, resp *routerrpc.VerifyWeightResponse) error {
	return s.f.Call("VerifyWeight", args, resp, rpcErrorFailed(&resp.Err))
}
func (s *trafficRouterServer) RemoveManagedRoutes(args any, resp *types.RpcError) error {
	return s.f.Call("RemoveManagedRoutes", args, resp, rpcErrorFailed(resp))
}

// A measurement in the Error phase is how a metric provider reports its own failure (metricutil.MarkMeasurementError);
// Failed and Inconclusive are the metric's verdict, not the plugin's failure.
func measurementFailed(m *v1alpha1.Measurement) func() bool {
	return func() bool { return m.Phase == v1alpha1.AnalysisPhaseError }
}

type metricProviderServer struct{ f *Forwarder }

func (s *metricProviderServer) InitPlugin(args any, resp *types.RpcError) error {
	return s.f.Call("InitPlugin", args, resp, rpcErrorFailed(resp))
}
func (s *metricProviderServer) Run(args any, resp *v1alpha1.Measurement) error {
	return s.f.Call("Run", args, resp, measurementFailed(resp))
}
func (s *metricProviderServer) Resume(args any, resp *v1alpha1.Measurement) error {
	return s.f.Call("Resume", args, resp, measurementFailed(resp))
}
func (s *metricProviderServer) Terminate(args any, resp *v1alpha1.Measurement) error {
	return s.f.Call("Terminate", args, resp, measurementFailed(resp))
}
func (s *metricProviderServer) GarbageCollect(args any, resp *types.RpcError) error {
	return s.f.Call("GarbageCollect", args, resp, rpcErrorFailed(resp))
}
func (s *metricProviderServer) Type(args any, resp *string) error {
	return s.f.Call("Type", args, resp, never)
}
func (s *metricProviderServer) GetMetadata(args any, resp *map[string]string) error {
	return s.f.Call("GetMetadata", args, resp, never)
}

// A step answers with an RpcError for unexpected failures, or a result in the Error phase; Failed is the step's
// verdict (the controller aborts the Rollout), not the plugin's failure.
func stepFailed(r *steprpc.Response) func() bool {
	return func() bool { return r.Error.HasError() || r.Result.Phase == types.PhaseError }
}

type stepServer struct{ f *Forwarder }

func (s *stepServer) InitPlugin(args any, resp *types.RpcError) error {
	return s.f.Call("InitPlugin", args, resp, rpcErrorFailed(resp))
}
func (s *stepServer) Run(args any, resp *steprpc.Response) error {
	return s.f.Call("Run", args, resp, stepFailed(resp))
}
func (s *stepServer) Terminate(args any, resp *steprpc.Response) error {
	return s.f.Call("Terminate", args, resp, stepFailed(resp))
}
func (s *stepServer) Abort(args any, resp *steprpc.Response) error {
	return s.f.Call("Abort", args, resp, stepFailed(resp))
}
func (s *stepServer) Type(args any, resp *string) error {
	return s.f.Call("Type", args, resp, never)
}
