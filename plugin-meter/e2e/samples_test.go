package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	metricrpc "github.com/argoproj/argo-rollouts/metricproviders/plugin/rpc"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"

	"github.com/rollscope/rollscope/plugin-meter/internal/meter"
)

// fakePrometheus answers every instant query with one sample of value 1.
func fakePrometheus(t *testing.T) string {
	t.Helper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"job":"checkout"},"value":[1764700000,"1"]}]}}`))
	}))
	t.Cleanup(server.Close)
	return server.URL
}

func sampleMetric(config string) v1alpha1.Metric {
	return v1alpha1.Metric{
		Name:             "success-rate",
		SuccessCondition: "result[0] == 1",
		Provider:         v1alpha1.MetricProvider{Plugin: map[string]json.RawMessage{"argoproj/sample-prometheus": json.RawMessage(config)}},
	}
}

// withoutTimes drops a measurement's start and finish times: the only fields two runs of one call may differ in.
func withoutTimes(m v1alpha1.Measurement) v1alpha1.Measurement {
	m.StartedAt, m.FinishedAt, m.ResumeAt = nil, nil, nil
	return m
}

// Upstream's metric-provider sample (metrics-plugin-sample), directly and through the meter: same measurements;
// a measurement in the Error phase counts as the plugin's error, a successful one as ok.
func TestUpstreamMetricSampleThroughTheMeter(t *testing.T) {
	// The sample takes Prometheus' address from the environment when the metric names none.
	t.Setenv("ARGO_ROLLOUTS_PROMETHEUS_ADDRESS", fakePrometheus(t))
	run := &v1alpha1.AnalysisRun{ObjectMeta: metav1.ObjectMeta{Name: "checkout-1", Namespace: "shop"}}
	fromEnv := sampleMetric(`{"query":"sum(up)"}`)
	unreachable := sampleMetric(`{"address":"http://` + freeAddress(t) + `","query":"sum(up)"}`)
	script := func(p metricrpc.MetricProviderPlugin) []any {
		ok := p.Run(run, fromEnv)
		failed := p.Run(run, unreachable)
		return []any{
			p.InitPlugin(), p.Type(), withoutTimes(ok), withoutTimes(failed),
			withoutTimes(p.Resume(run, fromEnv, ok)), withoutTimes(p.Terminate(run, fromEnv, ok)),
			p.GarbageCollect(run, fromEnv, 5), p.GetMetadata(fromEnv),
		}
	}
	want := script(startPlugin(t, meter.MetricProvider, bin("metrics-plugin-sample")).plugin.(metricrpc.MetricProviderPlugin))
	metrics := freeAddress(t)
	got := script(startPlugin(t, meter.MetricProvider, bin("rollscope-plugin-meter"),
		meterArgs(meter.MetricProvider, "argoproj/sample-prometheus", bin("metrics-plugin-sample"), metrics, t.TempDir())...).plugin.(metricrpc.MetricProviderPlugin))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("through the meter:\n%#v\ndirectly:\n%#v", got, want)
	}
	if ok, failed := want[2].(v1alpha1.Measurement), want[3].(v1alpha1.Measurement); ok.Phase != v1alpha1.AnalysisPhaseSuccessful || ok.Value != "[1]" || failed.Phase != v1alpha1.AnalysisPhaseError {
		t.Fatalf("unexpected direct measurements: %#v / %#v", ok, failed)
	}

	got2 := calls(scrape(t, metrics))
	want2 := map[string]map[string]float64{
		"InitPlugin": {"ok": 1}, "Type": {"ok": 1}, "Run": {"ok": 1, "error": 1},
		"Resume": {"ok": 1}, "Terminate": {"ok": 1}, "GarbageCollect": {"ok": 1}, "GetMetadata": {"ok": 1},
	}
	for method, outcomes := range want2 {
		for _, outcome := range meter.Outcomes {
			if got2[method][string(outcome)] != outcomes[string(outcome)] {
				t.Errorf("%s{method=%q,outcome=%q} = %v, want %v", meter.CallsMetric, method, outcome, got2[method][string(outcome)], outcomes[string(outcome)])
			}
		}
	}
}

// Upstream's step sample (step-plugin-sample) draws its value from a seeded generator: with the same --seed passed
// through the meter, the same values come back in the same order.
func TestUpstreamStepSampleThroughTheMeter(t *testing.T) {
	ro := &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "checkout", Namespace: "shop"}}
	script := func(p steprpc.StepPlugin) []any {
		var out []any
		for i := 0; i < 3; i++ {
			result, err := p.Run(ro, &types.RpcStepContext{PluginName: "argoproj/step-sample"})
			var state struct{ Value string }
			if result.Status != nil {
				if jsonErr := json.Unmarshal(result.Status, &state); jsonErr != nil {
					t.Fatal(jsonErr)
				}
			}
			out = append(out, result.Phase, result.Message, result.RequeueAfter, state.Value, err)
		}
		result, err := p.Terminate(ro, &types.RpcStepContext{PluginName: "argoproj/step-sample"})
		out = append(out, result.Phase, err)
		result, err = p.Abort(ro, &types.RpcStepContext{PluginName: "argoproj/step-sample"})
		out = append(out, result.Phase, err, p.Type())
		return out
	}
	direct := startPlugin(t, meter.Step, bin("step-plugin-sample"), "--seed", "42").plugin.(steprpc.StepPlugin)
	if err := direct.InitPlugin(); err.HasError() {
		t.Fatal(err)
	}
	want := script(direct)
	metrics := freeAddress(t)
	metered := startPlugin(t, meter.Step, bin("rollscope-plugin-meter"),
		meterArgs(meter.Step, "argoproj/step-sample", bin("step-plugin-sample"), metrics, t.TempDir(), "--plugin-arg=--seed", "--plugin-arg=42")...).plugin.(steprpc.StepPlugin)
	if err := metered.InitPlugin(); err.HasError() {
		t.Fatal(err)
	}
	got := script(metered)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("through the meter:\n%#v\ndirectly:\n%#v", got, want)
	}
	if want[0] != types.PhaseSuccessful || want[3] == "" {
		t.Fatalf("unexpected direct results: %#v", want)
	}

	c := calls(scrape(t, metrics))
	for method, n := range map[string]float64{"InitPlugin": 1, "Run": 3, "Terminate": 1, "Abort": 1, "Type": 1} {
		if c[method]["ok"] != n || c[method]["error"] != 0 || c[method]["transport"] != 0 {
			t.Errorf("%s outcomes %v, want ok %v", method, c[method], n)
		}
	}
}
