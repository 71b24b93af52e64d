// Package e2e runs the meter as the controller runs a plugin: a go-plugin client with upstream's handshake and
// upstream's RPC client types (the "controller" here), the meter binary as the plugin, the real plugin as its
// child. Nothing in between is faked.
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goPlugin "github.com/hashicorp/go-plugin"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	metricrpc "github.com/argoproj/argo-rollouts/metricproviders/plugin/rpc"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	routerrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"

	"github.com/rollscope/rollscope/plugin-meter/internal/meter"
)

// binDir holds rollscope-plugin-meter, faulty-router and upstream's three sample plugins.
var binDir string

// binaries are built by TestMain unless PLUGIN_METER_TEST_BIN_DIR names a folder that has them all (npm test
// passes the build cache of plugin-meter/build.ts, built from the same sources just before).
var binaries = []string{"rollscope-plugin-meter", "faulty-router", "metrics-plugin-sample", "step-plugin-sample", "trafficrouter-plugin-sample"}

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if dir := os.Getenv("PLUGIN_METER_TEST_BIN_DIR"); dir != "" && hasAll(dir) {
		binDir = dir
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "plugin-meter-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	builds := []struct {
		cwd  string
		args []string
	}{
		{"..", []string{"build", "-o", filepath.Join(dir, "rollscope-plugin-meter"), "./cmd/rollscope-plugin-meter"}},
		{"../../test/plugins", []string{"build", "-o", dir + "/", "./faulty-router",
			"github.com/argoproj/argo-rollouts/test/cmd/metrics-plugin-sample",
			"github.com/argoproj/argo-rollouts/test/cmd/step-plugin-sample",
			"github.com/argoproj/argo-rollouts/test/cmd/trafficrouter-plugin-sample"}},
	}
	for _, b := range builds {
		cmd := exec.Command("go", b.args...)
		cmd.Dir = b.cwd
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go %s (in %s): %v\n%s", strings.Join(b.args, " "), b.cwd, err, out)
			return 1
		}
	}
	binDir = dir
	return m.Run()
}

func hasAll(dir string) bool {
	for _, b := range binaries {
		if _, err := os.Stat(filepath.Join(dir, b)); err != nil {
			return false
		}
	}
	return true
}

func bin(name string) string { return filepath.Join(binDir, name) }

// freeAddress is a loopback address nothing listens on right now.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// upstream's plugin sets, as the controller declares them.
func pluginSet(kind *meter.Kind) goPlugin.PluginSet {
	switch kind {
	case meter.TrafficRouter:
		return goPlugin.PluginSet{kind.Dispense: &routerrpc.RpcTrafficRouterPlugin{}}
	case meter.MetricProvider:
		return goPlugin.PluginSet{kind.Dispense: &metricrpc.RpcMetricProviderPlugin{}}
	default:
		return goPlugin.PluginSet{kind.Dispense: &steprpc.RpcStepPlugin{}}
	}
}

// started is one plugin process as the controller holds it.
type started struct {
	client *goPlugin.Client
	plugin any
	stderr *syncBuffer
}

// startPlugin starts path as the controller does (goPlugin.NewClient with exec.Command(path, args...), Dispense).
func startPlugin(t *testing.T, kind *meter.Kind, path string, args ...string) *started {
	t.Helper()
	s, err := tryStartPlugin(kind, path, args...)
	if err != nil {
		t.Fatalf("starting %s %v: %v\nstderr:\n%s", filepath.Base(path), args, err, s.stderr.String())
	}
	t.Cleanup(s.client.Kill)
	return s
}

func tryStartPlugin(kind *meter.Kind, path string, args ...string) (*started, error) {
	stderr := &syncBuffer{}
	client := goPlugin.NewClient(&goPlugin.ClientConfig{
		HandshakeConfig: kind.Handshake(),
		Plugins:         pluginSet(kind),
		Cmd:             exec.Command(path, args...),
		Managed:         true,
		Stderr:          stderr,
		Logger:          hclog.New(&hclog.LoggerOptions{Name: "controller", Output: os.Stderr, Level: hclog.Warn}),
	})
	s := &started{client: client, stderr: stderr}
	protocol, err := client.Client()
	if err != nil {
		client.Kill()
		return s, err
	}
	s.plugin, err = protocol.Dispense(kind.Dispense)
	if err != nil {
		client.Kill()
	}
	return s, err
}

// meterArgs are the ConfigMap `args` of a meter in front of plugin.
func meterArgs(kind *meter.Kind, name, plugin, metricsAddress, stateDir string, extra ...string) []string {
	return append([]string{
		"--kind=" + kind.Name, "--name=" + name, "--plugin=" + plugin,
		"--metrics-address=" + metricsAddress, "--state-dir=" + stateDir,
	}, extra...)
}

// scrape reads the meter's /metrics, waiting (bounded) for the endpoint to come up.
func scrape(t *testing.T, address string) map[string]*dto.MetricFamily {
	t.Helper()
	var lastErr error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get("http://" + address + "/metrics")
		if err != nil {
			lastErr = err
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			lastErr = err
			continue
		}
		var parser expfmt.TextParser
		families, err := parser.TextToMetricFamilies(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("parsing /metrics: %v\n%s", err, body)
		}
		return families
	}
	t.Fatalf("no /metrics on %s: %v", address, lastErr)
	return nil
}

func labelsOf(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// calls is rollscope_plugin_calls_total by method and outcome.
func calls(families map[string]*dto.MetricFamily) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, m := range families[meter.CallsMetric].GetMetric() {
		l := labelsOf(m)
		if out[l["method"]] == nil {
			out[l["method"]] = map[string]float64{}
		}
		out[l["method"]][l["outcome"]] = m.GetCounter().GetValue()
	}
	return out
}

func durationOf(t *testing.T, families map[string]*dto.MetricFamily, method string) *dto.Histogram {
	t.Helper()
	for _, m := range families[meter.DurationMetric].GetMetric() {
		if labelsOf(m)["method"] == method {
			return m.GetHistogram()
		}
	}
	t.Fatalf("no %s for %s", meter.DurationMetric, method)
	return nil
}

// cumulativeCount is the histogram's count at the bucket whose upper bound is le.
func cumulativeCount(t *testing.T, h *dto.Histogram, le float64) uint64 {
	t.Helper()
	for _, b := range h.GetBucket() {
		if b.GetUpperBound() == le {
			return b.GetCumulativeCount()
		}
	}
	t.Fatalf("no bucket le=%v", le)
	return 0
}

// faultyControl drives a faulty-router's control endpoint.
type faultyControl struct{ address string }

func (c faultyControl) inject(t *testing.T, method, action string, count int, delay time.Duration, message string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"method": method, "action": action, "count": count, "delayMs": delay.Milliseconds(), "message": message})
	c.waitUp(t)
	resp, err := http.Post("http://"+c.address+"/faults", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("injecting %s: %s", body, resp.Status)
	}
}

// received is what the plugin itself counted per method.
func (c faultyControl) received(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	c.get(t, "/calls", &out)
	return out
}

// seconds is the time the plugin itself spent in each method.
func (c faultyControl) seconds(t *testing.T) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	c.get(t, "/seconds", &out)
	return out
}

func (c faultyControl) get(t *testing.T, path string, into any) {
	t.Helper()
	resp, err := http.Get("http://" + c.address + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

func (c faultyControl) waitUp(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if conn, err := net.Dial("tcp", c.address); err == nil {
			conn.Close()
			return
		}
	}
	t.Fatalf("faulty-router's control endpoint %s never came up", c.address)
}

// waitFor polls cond until it holds, failing after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting: %s", what)
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
