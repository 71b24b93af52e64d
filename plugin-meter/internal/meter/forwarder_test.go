package meter

import (
	"net"
	"net/rpc"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	routerrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"
)

// router answers SetWeight with an error for odd weights and VerifyWeight as verified.
type router struct{}

func (router) InitPlugin() types.RpcError { return types.RpcError{} }
func (router) UpdateHash(*v1alpha1.Rollout, string, string, []v1alpha1.WeightDestination) types.RpcError {
	return types.RpcError{}
}
func (router) SetWeight(_ *v1alpha1.Rollout, w int32, _ []v1alpha1.WeightDestination) types.RpcError {
	if w%2 == 1 {
		return types.RpcError{ErrorString: "odd weight"}
	}
	return types.RpcError{}
}
func (router) SetHeaderRoute(*v1alpha1.Rollout, *v1alpha1.SetHeaderRoute) types.RpcError {
	return types.RpcError{}
}
func (router) SetMirrorRoute(*v1alpha1.Rollout, *v1alpha1.SetMirrorRoute) types.RpcError {
	return types.RpcError{}
}
func (router) VerifyWeight(*v1alpha1.Rollout, int32, []v1alpha1.WeightDestination) (types.RpcVerified, types.RpcError) {
	return types.Verified, types.RpcError{}
}
func (router) RemoveManagedRoutes(*v1alpha1.Rollout) types.RpcError { return types.RpcError{} }
func (router) Type() string                                         { return "in-memory" }

// serve registers v as "Plugin" on one end of a pipe and returns a client on the other, as go-plugin does per stream.
func serve(t testing.TB, v any) *rpc.Client {
	server := rpc.NewServer()
	if err := server.RegisterName("Plugin", v); err != nil {
		t.Fatal(err)
	}
	a, b := net.Pipe()
	go server.ServeConn(a)
	t.Cleanup(func() { a.Close(); b.Close() })
	return rpc.NewClient(b)
}

// controllerThroughMeter is upstream's RPC client, talking to the meter's server, which forwards to router.
func controllerThroughMeter(t testing.TB, recorder *Recorder) routerrpc.TrafficRouterPlugin {
	child := serve(t, &routerrpc.TrafficRouterRPCServer{Impl: router{}})
	forwarder := NewForwarder(TrafficRouter, child, recorder, 0, nil)
	plugin, _ := (&routerrpc.RpcTrafficRouterPlugin{}).Client(nil, serve(t, TrafficRouter.newServer(forwarder)))
	return plugin.(routerrpc.TrafficRouterPlugin)
}

func TestRecorderKeepsCountsAcrossProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	first, err := OpenRecorder(TrafficRouter, "org/router", dir)
	if err != nil {
		t.Fatal(err)
	}
	p := controllerThroughMeter(t, first)
	ro := &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "checkout"}}
	if err := p.SetWeight(ro, 1, nil); err.ErrorString != "odd weight" {
		t.Fatalf("SetWeight answered %q", err.ErrorString)
	}
	p.SetWeight(ro, 2, nil)
	if err := first.Flush(); err != nil {
		t.Fatal(err)
	}

	second, err := OpenRecorder(TrafficRouter, "org/router", dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := second.state.Calls["SetWeight"]; got[OutcomeOK] != 1 || got[OutcomeError] != 1 {
		t.Fatalf("after a restart SetWeight = %v", got)
	}
	if second.Restarts() != 1 || second.state.Durations["SetWeight"].Count != 2 {
		t.Fatalf("restarts %d, SetWeight durations %d", second.Restarts(), second.state.Durations["SetWeight"].Count)
	}

	// Another plugin given the same directory neither takes over nor overwrites that state.
	other, err := OpenRecorder(TrafficRouter, "org/other", dir)
	if err == nil || other.Restarts() != 0 || other.state.Calls["SetWeight"][OutcomeError] != 0 {
		t.Fatalf("org/other used org/router's state directory: %v, %+v", err, other.state)
	}
	other.Count("SetWeight", OutcomeTransport)
	_ = other.Flush()
	third, _ := OpenRecorder(TrafficRouter, "org/router", dir)
	if third.Restarts() != 2 || third.state.Calls["SetWeight"][OutcomeTransport] != 0 {
		t.Fatalf("org/router's state after org/other: restarts %d, %v", third.Restarts(), third.state.Calls["SetWeight"])
	}
}

func TestDurationsFallInPrometheusBuckets(t *testing.T) {
	r, _ := OpenRecorder(Step, "org/step", "")
	for _, d := range []time.Duration{500 * time.Microsecond, 501 * time.Microsecond, 90 * time.Second} {
		r.Observe("Run", d, OutcomeOK, true)
	}
	h := r.state.Durations["Run"]
	// le=0.0005 holds exactly 0.5 ms; 0.501 ms is in le=0.001; 90 s only in +Inf.
	if h.Buckets[0] != 1 || h.Buckets[1] != 1 || h.Buckets[len(DurationBuckets)] != 1 || h.Count != 3 {
		t.Fatalf("buckets %v", h.Buckets)
	}
}

func TestUnwritableStateDirStillMeters(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRecorder(TrafficRouter, "org/router", filepath.Join(file, "state"))
	if err == nil {
		t.Fatal("a state directory under a file was usable")
	}
	r.Count("SetWeight", OutcomeOK)
	if r.Flush() != nil || r.state.Calls["SetWeight"][OutcomeOK] != 1 {
		t.Fatal("the recorder stopped working without its state directory")
	}
}

// BenchmarkForwardSetWeight is the meter's own work per call, without processes: decode the controller's
// arguments, encode them to the child, decode its reply, encode it back, count. go test -bench . -cpuprofile cpu.out
func BenchmarkForwardSetWeight(b *testing.B) {
	recorder, _ := OpenRecorder(TrafficRouter, "org/router", "")
	p := controllerThroughMeter(b, recorder)
	ro := &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "checkout", Namespace: "shop", Labels: map[string]string{"app": "checkout"}}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.SetWeight(ro, 2, nil)
	}
}

func TestConcurrentCallsAreAllCounted(t *testing.T) {
	recorder, _ := OpenRecorder(TrafficRouter, "org/router", "")
	p := controllerThroughMeter(t, recorder)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				p.SetWeight(&v1alpha1.Rollout{}, int32(i), nil) // odd weights fail: 25 of 50
				p.VerifyWeight(&v1alpha1.Rollout{}, int32(i), nil)
			}
		}()
	}
	wg.Wait()
	calls := recorder.state.Calls
	if calls["SetWeight"][OutcomeOK] != 200 || calls["SetWeight"][OutcomeError] != 200 || calls["VerifyWeight"][OutcomeOK] != 400 {
		t.Fatalf("SetWeight %v, VerifyWeight %v", calls["SetWeight"], calls["VerifyWeight"])
	}
}
