package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	goPlugin "github.com/hashicorp/go-plugin"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	metricclient "github.com/argoproj/argo-rollouts/metricproviders/plugin/client"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	stepclient "github.com/argoproj/argo-rollouts/rollout/steps/plugin/client"
	routerclient "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/client"
	"github.com/argoproj/argo-rollouts/utils/config"
	"github.com/argoproj/argo-rollouts/utils/plugin"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"

	"github.com/rollscope/rollscope/plugin-meter/internal/meter"
)

// The controller's own start-up and plugin code (v1.9.1): argo-rollouts-config read with config.InitializeConfig,
// file:// locations copied by plugin.DownloadPlugins, and each kind's client package starting, pinging and
// restarting the plugin — here with the meter registered as the docs/plugins.md recipe registers it, ConfigMap
// `args` and all. Only the Kubernetes API is a fake (client-go's), holding the ConfigMap.
func TestControllerCodeRunsPluginsThroughTheMeter(t *testing.T) {
	t.Chdir(t.TempDir()) // the controller copies plugins to ./plugin-bin
	t.Setenv("POD_NAMESPACE", "argo-rollouts")
	t.Setenv("ARGO_ROLLOUTS_PROMETHEUS_ADDRESS", fakePrometheus(t))
	t.Cleanup(goPlugin.CleanupClients) // the upstream clients start their plugins Managed
	control := faultyControl{freeAddress(t)}
	routerMetrics, metricMetrics, stepMetrics := freeAddress(t), freeAddress(t), freeAddress(t)
	state := t.TempDir()

	entry := func(name, kind, pluginPath, metrics string, extra ...string) string {
		args := []string{"--kind=" + kind, "--name=" + name, "--plugin=" + pluginPath, "--metrics-address=" + metrics,
			"--state-dir=" + state + "/" + strings.ReplaceAll(name, "/", "_")}
		quoted, _ := json.Marshal(append(args, extra...))
		return fmt.Sprintf("- name: %s\n  location: file://%s\n  args: %s\n", name, bin("rollscope-plugin-meter"), quoted)
	}
	kube := fake.NewSimpleClientset(&corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "argo-rollouts-config", Namespace: "argo-rollouts"},
		Data: map[string]string{
			"trafficRouterPlugins":  entry("rollscope/faulty-router", "trafficRouter", bin("faulty-router"), routerMetrics, "--", "--control-address", control.address),
			"metricProviderPlugins": entry("argoproj/sample-prometheus", "metricProvider", bin("metrics-plugin-sample"), metricMetrics),
			"stepPlugins":           entry("argoproj/step-sample", "step", bin("step-plugin-sample"), stepMetrics, "--plugin-arg=--seed", "--plugin-arg=7"),
		},
	})
	if _, err := config.InitializeConfig(kube, "argo-rollouts-config"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(config.UnInitializeConfig)
	if err := plugin.DownloadPlugins(plugin.FileDownloaderImpl{}, kube); err != nil {
		t.Fatal(err)
	}

	// Traffic router: 5 weight changes, 2 SetWeight failures injected.
	router, err := routerclient.GetTrafficPlugin("rollscope/faulty-router")
	if err != nil {
		t.Fatal(err)
	}
	control.inject(t, "SetWeight", "fail", 2, 0, "injected by the test")
	failures, verified := 0, 0
	for i := 0; i < 5; i++ {
		ro := rollout("checkout")
		if err := router.SetWeight(ro, int32(10*(i+1)), nil); err.HasError() {
			failures++
		}
		v, err := router.VerifyWeight(ro, int32(10*(i+1)), nil)
		if err.HasError() {
			t.Fatal(err)
		}
		if v == types.Verified {
			verified++
		}
	}
	// A weight the router refused to set is not verified either: what the controller then reports.
	if failures != 2 || verified != 3 {
		t.Fatalf("%d SetWeight failures and %d verified weights reached the controller, want 2 and 3", failures, verified)
	}

	// Metric provider and step: one call each, through the controller's clients.
	provider, err := metricclient.GetMetricPlugin(sampleMetric(`{"query":"sum(up)"}`))
	if err != nil {
		t.Fatal(err)
	}
	run := &v1alpha1.AnalysisRun{ObjectMeta: metav1.ObjectMeta{Name: "checkout-1", Namespace: "shop"}}
	if m := provider.Run(run, sampleMetric(`{"query":"sum(up)"}`)); m.Phase != v1alpha1.AnalysisPhaseSuccessful {
		t.Fatalf("metric Run: %+v", m)
	}
	step, err := stepclient.GetPlugin("argoproj/step-sample")
	if err != nil {
		t.Fatal(err)
	}
	if result, err := step.Run(rollout("checkout"), &types.RpcStepContext{PluginName: "argoproj/step-sample"}); err.HasError() || result.Phase != types.PhaseSuccessful {
		t.Fatalf("step Run: %+v, %v", result, err)
	}

	// The router crashes mid-call: the meter exits with it, and the controller's next reconciles find the plugin
	// gone (exited, or its ping fails) and start meter and plugin again.
	control.inject(t, "SetWeight", "crash", 1, 0, "")
	if err := router.SetWeight(rollout("checkout"), 60, nil); err.ErrorString != "SetWeight rpc call error: unexpected EOF" {
		t.Fatalf("the crash reached the controller as %q", err.ErrorString)
	}
	crashed := router
	waitFor(t, "the controller to start the plugin again", func() bool {
		router, err = routerclient.GetTrafficPlugin("rollscope/faulty-router")
		return err == nil && router != crashed
	})
	if err := router.SetWeight(rollout("checkout"), 60, nil); err.HasError() {
		t.Fatal(err)
	}

	routerFamilies := scrape(t, routerMetrics)
	if got := calls(routerFamilies); got["SetWeight"]["ok"] != 4 || got["SetWeight"]["error"] != 2 || got["SetWeight"]["transport"] != 1 ||
		got["VerifyWeight"]["ok"] != 5 || got["InitPlugin"]["ok"] != 2 {
		t.Errorf("router calls %v", got)
	}
	if r := routerFamilies[meter.RestartsMetric].GetMetric(); len(r) != 1 || r[0].GetCounter().GetValue() != 1 {
		t.Errorf("router restarts %v, want 1", r)
	}
	if got := calls(scrape(t, metricMetrics)); got["Run"]["ok"] != 1 || got["InitPlugin"]["ok"] != 1 {
		t.Errorf("metric provider calls %v", got)
	}
	if got := calls(scrape(t, stepMetrics)); got["Run"]["ok"] != 1 || got["InitPlugin"]["ok"] != 1 {
		t.Errorf("step calls %v", got)
	}
}
