package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	routerrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"

	"github.com/rollscope/rollscope/plugin-meter/internal/meter"
)

func rollout(name string) *v1alpha1.Rollout {
	return &v1alpha1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
		Spec: v1alpha1.RolloutSpec{Strategy: v1alpha1.RolloutStrategy{Canary: &v1alpha1.CanaryStrategy{
			CanaryService: name + "-canary", StableService: name + "-stable",
			TrafficRouting: &v1alpha1.RolloutTrafficRouting{Plugins: map[string]json.RawMessage{"rollscope/faulty": json.RawMessage(`{}`)}},
		}}},
	}
}

// meteredRouter starts faulty-router behind the meter; the router's control address reaches it only through the
// environment the meter passes on (as KUBECONFIG reaches upstream's router).
func meteredRouter(t *testing.T, extra ...string) (routerrpc.TrafficRouterPlugin, faultyControl, string, *started) {
	t.Helper()
	control := faultyControl{freeAddress(t)}
	t.Setenv("FAULTY_ROUTER_CONTROL_ADDRESS", control.address)
	metrics := freeAddress(t)
	s := startPlugin(t, meter.TrafficRouter, bin("rollscope-plugin-meter"),
		meterArgs(meter.TrafficRouter, "rollscope/faulty", bin("faulty-router"), metrics, t.TempDir(), extra...)...)
	return s.plugin.(routerrpc.TrafficRouterPlugin), control, metrics, s
}

func TestMeterCountsInjectedFailuresAndDelaysPerMethod(t *testing.T) {
	router, control, metrics, _ := meteredRouter(t)
	if err := router.InitPlugin(); err.HasError() {
		t.Fatal(err)
	}
	const n = 40
	const setWeightFailures, verifyFailures, verifyDelayed = 7, 3, 2
	const hashDelayed, hashDelay = 3, time.Second
	control.inject(t, "SetWeight", "fail", setWeightFailures, 0, "injected: route shop/checkout refused")
	control.inject(t, "VerifyWeight", "fail", verifyFailures, 0, "")
	control.inject(t, "VerifyWeight", "delay", verifyDelayed, 1500*time.Millisecond, "")
	control.inject(t, "UpdateHash", "delay", hashDelayed, hashDelay, "")

	// n calls of each method, 8 at a time, as a controller with several workers makes them.
	var mu sync.Mutex
	failed := map[string][]string{}
	work := make(chan func(), 2*n+hashDelayed)
	for i := 0; i < n; i++ {
		ro := rollout("checkout")
		work <- func() {
			if err := router.SetWeight(ro, 20, nil); err.HasError() {
				mu.Lock()
				failed["SetWeight"] = append(failed["SetWeight"], err.Error())
				mu.Unlock()
			}
		}
		work <- func() {
			if _, err := router.VerifyWeight(ro, 20, nil); err.HasError() {
				mu.Lock()
				failed["VerifyWeight"] = append(failed["VerifyWeight"], err.Error())
				mu.Unlock()
			}
		}
	}
	for i := 0; i < hashDelayed; i++ {
		work <- func() { router.UpdateHash(rollout("checkout"), "canary", "stable", nil) }
	}
	close(work)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				f()
			}
		}()
	}
	wg.Wait()

	// The controller saw exactly the injected failures, with the plugin's own text.
	if len(failed["SetWeight"]) != setWeightFailures || len(failed["VerifyWeight"]) != verifyFailures {
		t.Fatalf("controller saw %d SetWeight and %d VerifyWeight failures, want %d and %d", len(failed["SetWeight"]), len(failed["VerifyWeight"]), setWeightFailures, verifyFailures)
	}
	for _, text := range failed["SetWeight"] {
		if text != "injected: route shop/checkout refused" {
			t.Fatalf("SetWeight failure reached the controller as %q", text)
		}
	}
	if got := control.received(t); got["SetWeight"] != n || got["VerifyWeight"] != n {
		t.Fatalf("the plugin received %v, want %d of each", got, n)
	}

	families := scrape(t, metrics)
	got := calls(families)
	want := map[string]map[string]float64{
		"SetWeight":    {"ok": n - setWeightFailures, "error": setWeightFailures, "transport": 0, "timeout": 0},
		"VerifyWeight": {"ok": n - verifyFailures, "error": verifyFailures, "transport": 0, "timeout": 0},
		"UpdateHash":   {"ok": hashDelayed, "error": 0, "transport": 0, "timeout": 0},
		"InitPlugin":   {"ok": 1, "error": 0, "transport": 0, "timeout": 0},
	}
	for method, outcomes := range want {
		if !reflect.DeepEqual(got[method], outcomes) {
			t.Errorf("%s{method=%q} = %v, want %v", meter.CallsMetric, method, got[method], outcomes)
		}
	}

	// Every UpdateHash was delayed: the meter's mean is the time the plugin itself spent (±10 %), which is at least
	// the injected delay (a loaded machine oversleeps; the meter must report what happened, not what was asked).
	hash := durationOf(t, families, "UpdateHash")
	mean := hash.GetSampleSum() / float64(hash.GetSampleCount())
	inPlugin := control.seconds(t)["UpdateHash"] / hashDelayed
	if hash.GetSampleCount() != hashDelayed || inPlugin < hashDelay.Seconds() || mean < 0.9*inPlugin || mean > 1.1*inPlugin {
		t.Errorf("UpdateHash: %d calls, mean %.3f s in the meter and %.3f s in the plugin; want %d calls, equal ± 10 %%, of at least %.1f s",
			hash.GetSampleCount(), mean, inPlugin, hashDelayed, hashDelay.Seconds())
	}
	// Two of n VerifyWeight calls were delayed 1.5 s: they, and only they, are above the 1 s bucket.
	verify := durationOf(t, families, "VerifyWeight")
	if below, all := cumulativeCount(t, verify, 1), cumulativeCount(t, verify, 2.5); verify.GetSampleCount() != n || below != n-verifyDelayed || all != n {
		t.Errorf("VerifyWeight histogram: count %d, le=1 %d, le=2.5 %d; want %d, %d, %d", verify.GetSampleCount(), below, all, n, n-verifyDelayed, n)
	}
}

func TestMeterForwardsCallsConcurrently(t *testing.T) {
	router, control, _, _ := meteredRouter(t)
	control.inject(t, "SetWeight", "delay", 1, 5*time.Second, "")
	var slowDone atomic.Bool
	finished := make(chan struct{})
	go func() {
		router.SetWeight(rollout("slow"), 50, nil)
		slowDone.Store(true)
		close(finished)
	}()
	waitFor(t, "the plugin received the slow SetWeight", func() bool { return control.received(t)["SetWeight"] == 1 })
	// A second call goes through while the first is still inside the plugin.
	if err := router.SetWeight(rollout("fast"), 10, nil); err.HasError() {
		t.Fatal(err)
	}
	if slowDone.Load() {
		t.Fatal("the second call waited for the first: calls were serialized")
	}
	<-finished
}

// The same script of calls against the router directly and through the meter gives the same answers.
func TestRouterRepliesPassThroughUnchanged(t *testing.T) {
	script := func(router routerrpc.TrafficRouterPlugin, control faultyControl) []any {
		ro := rollout("checkout")
		var out []any
		out = append(out, router.InitPlugin(), router.Type(), router.SetWeight(ro, 10, nil))
		v, err := router.VerifyWeight(ro, 10, nil)
		out = append(out, v, err)
		v, err = router.VerifyWeight(ro, 20, nil)
		out = append(out, v, err)
		control.inject(t, "SetWeight", "fail", 1, 0, "boom: HTTPRoute shop/checkout has no rule for the canary")
		out = append(out, router.SetWeight(ro, 30, nil))
		control.inject(t, "VerifyWeight", "fail", 1, 0, "")
		v, err = router.VerifyWeight(ro, 10, nil)
		out = append(out, v, err)
		control.inject(t, "VerifyWeight", "unverified", 1, 0, "")
		v, err = router.VerifyWeight(ro, 10, nil)
		out = append(out, v, err)
		out = append(out,
			router.UpdateHash(ro, "abc", "def", []v1alpha1.WeightDestination{{ServiceName: "extra", Weight: 5}}),
			router.SetHeaderRoute(ro, &v1alpha1.SetHeaderRoute{Name: "header"}),
			router.SetMirrorRoute(ro, &v1alpha1.SetMirrorRoute{Name: "mirror"}),
			router.RemoveManagedRoutes(ro),
			router.Type())
		return out
	}
	directControl := faultyControl{freeAddress(t)}
	direct := startPlugin(t, meter.TrafficRouter, bin("faulty-router"), "--control-address", directControl.address)
	want := script(direct.plugin.(routerrpc.TrafficRouterPlugin), directControl)

	meteredControl := faultyControl{freeAddress(t)}
	metered := startPlugin(t, meter.TrafficRouter, bin("rollscope-plugin-meter"),
		append(meterArgs(meter.TrafficRouter, "rollscope/faulty", bin("faulty-router"), freeAddress(t), t.TempDir()), "--", "--control-address", meteredControl.address)...)
	got := script(metered.plugin.(routerrpc.TrafficRouterPlugin), meteredControl)

	if !reflect.DeepEqual(got, want) {
		t.Fatalf("through the meter:\n%#v\ndirectly:\n%#v", got, want)
	}
	// And the script did what it says (so equal is not equal-and-empty).
	if want[1] != "FaultyRouter" || want[3] != types.Verified || want[5] != types.NotVerified ||
		want[7].(types.RpcError).ErrorString != "boom: HTTPRoute shop/checkout has no rule for the canary" || !want[9].(types.RpcError).HasError() {
		t.Fatalf("unexpected direct answers: %#v", want)
	}
}

// Upstream's sample router reads KUBECONFIG from the environment it inherits; a broken file gives an error text
// that names it, the same through the meter as directly.
func TestUpstreamSampleRouterThroughTheMeter(t *testing.T) {
	kubeconfig := t.TempDir() + "/broken-kubeconfig"
	if err := os.WriteFile(kubeconfig, []byte("this is: [not a kubeconfig"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	direct := startPlugin(t, meter.TrafficRouter, bin("trafficrouter-plugin-sample")).plugin.(routerrpc.TrafficRouterPlugin)
	metrics := freeAddress(t)
	metered := startPlugin(t, meter.TrafficRouter, bin("rollscope-plugin-meter"),
		meterArgs(meter.TrafficRouter, "argoproj-labs/sample-nginx", bin("trafficrouter-plugin-sample"), metrics, t.TempDir())...).plugin.(routerrpc.TrafficRouterPlugin)

	want := []any{direct.InitPlugin(), direct.Type()}
	got := []any{metered.InitPlugin(), metered.Type()}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("through the meter %#v, directly %#v", got, want)
	}
	if err := want[0].(types.RpcError); !strings.Contains(err.ErrorString, kubeconfig) || want[1] != "plugin-nginx" {
		t.Fatalf("the sample did not read KUBECONFIG: %#v", want)
	}
	c := calls(scrape(t, metrics))
	if c["InitPlugin"]["error"] != 1 || c["Type"]["ok"] != 1 {
		t.Fatalf("calls %v, want InitPlugin error 1 and Type ok 1", c)
	}
}

func TestCallTimeoutCountsWithoutChangingTheAnswer(t *testing.T) {
	// Generous against a loaded machine: a call that is not delayed never takes a second.
	router, control, metrics, _ := meteredRouter(t, "--call-timeout=1s")
	control.inject(t, "SetWeight", "delay", 1, 3*time.Second, "")
	if err := router.SetWeight(rollout("checkout"), 40, nil); err.HasError() {
		t.Fatalf("a slow SetWeight reached the controller as %v", err)
	}
	if err := router.SetWeight(rollout("checkout"), 40, nil); err.HasError() {
		t.Fatal(err)
	}
	if got := calls(scrape(t, metrics))["SetWeight"]; got["timeout"] != 1 || got["ok"] != 1 || got["error"] != 0 {
		t.Fatalf("SetWeight outcomes %v, want timeout 1 and ok 1", got)
	}
}

// A plugin that dies mid-call: the controller gets the same error as without the meter, the meter exits with it
// (so that the controller's ping fails and it starts the plugin again), and the next meter process shows the
// failed call as a transport outcome and the restart.
func TestPluginCrashIsATransportOutcomeAndARestart(t *testing.T) {
	directControl := faultyControl{freeAddress(t)}
	direct := startPlugin(t, meter.TrafficRouter, bin("faulty-router"), "--control-address", directControl.address)
	directControl.inject(t, "SetWeight", "crash", 1, 0, "")
	want := direct.plugin.(routerrpc.TrafficRouterPlugin).SetWeight(rollout("checkout"), 10, nil)

	control := faultyControl{freeAddress(t)}
	t.Setenv("FAULTY_ROUTER_CONTROL_ADDRESS", control.address)
	metrics, stateDir := freeAddress(t), t.TempDir()
	args := meterArgs(meter.TrafficRouter, "rollscope/faulty", bin("faulty-router"), metrics, stateDir)
	first := startPlugin(t, meter.TrafficRouter, bin("rollscope-plugin-meter"), args...)
	router := first.plugin.(routerrpc.TrafficRouterPlugin)
	if err := router.SetWeight(rollout("checkout"), 10, nil); err.HasError() {
		t.Fatal(err)
	}
	control.inject(t, "SetWeight", "crash", 1, 0, "")
	got := router.SetWeight(rollout("checkout"), 20, nil)
	if !want.HasError() || got != want {
		t.Fatalf("through the meter %q, directly %q", got.ErrorString, want.ErrorString)
	}
	t.Logf("the controller saw %q with and without the meter", got.ErrorString)
	waitFor(t, "the meter exits with its plugin", first.client.Exited)

	// The controller starts the plugin again, as it does when the ping fails.
	second := startPlugin(t, meter.TrafficRouter, bin("rollscope-plugin-meter"), args...)
	if err := second.plugin.(routerrpc.TrafficRouterPlugin).SetWeight(rollout("checkout"), 20, nil); err.HasError() {
		t.Fatal(err)
	}
	families := scrape(t, metrics)
	if got := calls(families)["SetWeight"]; got["ok"] != 2 || got["transport"] != 1 || got["error"] != 0 {
		t.Fatalf("SetWeight outcomes %v, want ok 2 and transport 1 across both meter processes", got)
	}
	restarts := families[meter.RestartsMetric].GetMetric()
	if len(restarts) != 1 || restarts[0].GetCounter().GetValue() != 1 {
		t.Fatalf("%s = %v, want 1", meter.RestartsMetric, restarts)
	}
	if !strings.Contains(first.stderr.String(), "plugin process exited") {
		t.Errorf("the first meter did not say why it exited:\n%s", first.stderr.String())
	}
}

func TestSHA256MismatchRefusesToStartThePlugin(t *testing.T) {
	control := faultyControl{freeAddress(t)}
	t.Setenv("FAULTY_ROUTER_CONTROL_ADDRESS", control.address)
	data, err := os.ReadFile(bin("faulty-router"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	right := hex.EncodeToString(sum[:])
	wrong := strings.Repeat("0", 64)

	s, err := tryStartPlugin(meter.TrafficRouter, bin("rollscope-plugin-meter"),
		meterArgs(meter.TrafficRouter, "rollscope/faulty", bin("faulty-router"), "", t.TempDir(), "--sha256="+wrong)...)
	if err == nil {
		t.Fatal("the meter started a plugin whose sha256 differs")
	}
	if want := "refusing to start the plugin: sha256 of " + bin("faulty-router") + " is " + right + ", --sha256 expects " + wrong; !strings.Contains(s.stderr.String(), want) {
		t.Fatalf("stderr does not say %q:\n%s", want, s.stderr.String())
	}
	if conn, err := net.Dial("tcp", control.address); err == nil {
		conn.Close()
		t.Fatal("the plugin ran anyway: its control endpoint answers")
	}

	ok := startPlugin(t, meter.TrafficRouter, bin("rollscope-plugin-meter"),
		meterArgs(meter.TrafficRouter, "rollscope/faulty", bin("faulty-router"), "", t.TempDir(), "--sha256="+strings.ToUpper(right))...)
	if got := ok.plugin.(routerrpc.TrafficRouterPlugin).Type(); got != "FaultyRouter" {
		t.Fatalf("with the right sha256 Type() = %q", got)
	}
}

// A meter registered under another kind than its --kind says so and exits, so the controller reports the plugin
// as not starting instead of calling methods the meter does not forward.
func TestMeterRegisteredUnderAnotherKindRefusesToStart(t *testing.T) {
	s, err := tryStartPlugin(meter.TrafficRouter, bin("rollscope-plugin-meter"),
		meterArgs(meter.Step, "argoproj/step-sample", bin("step-plugin-sample"), "", t.TempDir())...)
	if err == nil {
		t.Fatal("a step meter started as a traffic router")
	}
	if want := `started as a "trafficrouter" plugin but --kind=step expects "step"`; !strings.Contains(s.stderr.String(), want) {
		t.Fatalf("stderr does not say %q:\n%s", want, s.stderr.String())
	}
}
