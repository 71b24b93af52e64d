// meter-bench measures what the meter adds to a plugin call: the same calls, in one run, to a traffic-router plugin
// started directly and to the same plugin behind the meter, both through upstream's go-plugin client as the
// controller makes them. It prints added latency (p50/p99), the meter's CPU per 1,000 calls and its resident memory.
//
//	go run ./cmd/meter-bench --meter=<rollscope-plugin-meter> --plugin=<faulty-router> [--calls=5000]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	goPlugin "github.com/hashicorp/go-plugin"
	"sigs.k8s.io/yaml"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	routerrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"

	"github.com/rollscope/rollscope/plugin-meter/internal/meter"
)

type side struct {
	name   string
	client *goPlugin.Client
	router routerrpc.TrafficRouterPlugin
	// latencies of one SetWeight or VerifyWeight call each
	latencies []time.Duration
}

func start(name, path string, args ...string) (*side, error) {
	client := goPlugin.NewClient(&goPlugin.ClientConfig{
		HandshakeConfig: meter.TrafficRouter.Handshake(),
		Plugins:         goPlugin.PluginSet{meter.TrafficRouter.Dispense: &routerrpc.RpcTrafficRouterPlugin{}},
		Cmd:             exec.Command(path, args...),
		Logger:          hclog.New(&hclog.LoggerOptions{Output: os.Stderr, Level: hclog.Warn}),
	})
	protocol, err := client.Client()
	if err != nil {
		return nil, err
	}
	raw, err := protocol.Dispense(meter.TrafficRouter.Dispense)
	if err != nil {
		return nil, err
	}
	router := raw.(routerrpc.TrafficRouterPlugin)
	if e := router.InitPlugin(); e.HasError() {
		return nil, e
	}
	return &side{name: name, client: client, router: router}, nil
}

// call is one reconcile's worth of router calls, as the controller makes them for a weight change.
func (s *side) call(ro *v1alpha1.Rollout, weight int32) {
	for _, f := range []func(){
		func() { s.router.SetWeight(ro, weight, nil) },
		func() { s.router.VerifyWeight(ro, weight, nil) },
	} {
		began := time.Now()
		f()
		s.latencies = append(s.latencies, time.Since(began))
	}
}

func (s *side) pid() int { return s.client.ReattachConfig().Pid }

// cpuSeconds is utime+stime of a process from /proc/<pid>/stat.
func cpuSeconds(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100 // USER_HZ
}

// rssMiB is VmRSS from /proc/<pid>/status.
func rssMiB(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// childOf is the first child process of pid (the meter's plugin).
func childOf(pid int) int {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if f := strings.Fields(string(data)); len(f) > 0 {
		n, _ := strconv.Atoi(f[0])
		return n
	}
	return 0
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	return sorted[int(p*float64(len(sorted)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()*1000) }

func main() {
	meterPath := flag.String("meter", "", "the rollscope-plugin-meter binary")
	pluginPath := flag.String("plugin", "", "a traffic-router plugin that needs no cluster (test/plugins/faulty-router)")
	rolloutPath := flag.String("rollout", "../test/fixtures/rollouts/plugin-and-builtin-router.yaml", "the Rollout sent with each call")
	calls := flag.Int("calls", 5000, "weight changes per side (each is a SetWeight and a VerifyWeight)")
	flag.Parse()
	if *meterPath == "" || *pluginPath == "" {
		fmt.Fprintln(os.Stderr, "--meter and --plugin are required")
		os.Exit(2)
	}
	data, err := os.ReadFile(*rolloutPath)
	check(err)
	var ro v1alpha1.Rollout
	check(yaml.Unmarshal(data, &ro))

	stateDir, err := os.MkdirTemp("", "meter-bench-")
	check(err)
	defer os.RemoveAll(stateDir)
	direct, err := start("direct", *pluginPath)
	check(err)
	defer direct.client.Kill()
	metered, err := start("through the meter", *meterPath, "--kind=trafficRouter", "--name=bench/router", "--plugin="+*pluginPath,
		"--metrics-address=127.0.0.1:0", "--state-dir="+filepath.Join(stateDir, "state"))
	check(err)
	defer metered.client.Kill()

	for i := 0; i < 500; i++ { // warm-up
		direct.call(&ro, int32(i%100))
		metered.call(&ro, int32(i%100))
	}
	direct.latencies, metered.latencies = nil, nil

	// Latency: the two sides alternate call by call, so that whatever else the machine does falls on both alike.
	for i := 0; i < *calls; i++ {
		direct.call(&ro, int32(i%100))
		metered.call(&ro, int32(i%100))
	}
	// CPU: a block of calls through the meter alone, the meter's and its plugin's CPU time before and after.
	meterPid, childPid := metered.pid(), childOf(metered.pid())
	meterCPU, childCPU, began := cpuSeconds(meterPid), cpuSeconds(childPid), time.Now()
	for i := 0; i < *calls; i++ {
		metered.call(&ro, int32(i%100))
	}
	elapsed := time.Since(began)
	meterCPU, childCPU = cpuSeconds(meterPid)-meterCPU, cpuSeconds(childPid)-childCPU
	directPid := direct.pid()
	directCPU := cpuSeconds(directPid)
	for i := 0; i < *calls; i++ {
		direct.call(&ro, int32(i%100))
	}
	directCPU = cpuSeconds(directPid) - directCPU

	fmt.Printf("rollscope-plugin-meter %s, %s, %d CPUs; Rollout %s (%d bytes of YAML); %d weight changes per side (SetWeight + VerifyWeight, one call at a time)\n\n",
		meter.Version, runtime.Version(), runtime.NumCPU(), filepath.Base(*rolloutPath), len(data), *calls)
	fmt.Println("| per call | p50 ms | p90 ms | p99 ms | max ms |")
	fmt.Println("|---|---|---|---|---|")
	sorted := map[string][]time.Duration{}
	for _, s := range []*side{direct, metered} {
		l := append([]time.Duration(nil), s.latencies...)
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
		sorted[s.name] = l
		fmt.Printf("| %s | %s | %s | %s | %s |\n", s.name, ms(percentile(l, 0.5)), ms(percentile(l, 0.9)), ms(percentile(l, 0.99)), ms(l[len(l)-1]))
	}
	d, m := sorted["direct"], sorted["through the meter"]
	fmt.Printf("| added by the meter | %s | %s | %s | |\n\n", ms(percentile(m, 0.5)-percentile(d, 0.5)), ms(percentile(m, 0.9)-percentile(d, 0.9)), ms(percentile(m, 0.99)-percentile(d, 0.99)))
	per1000 := func(cpu float64) string { return fmt.Sprintf("%.0f", cpu*1000/float64(2**calls)*1000) }
	fmt.Printf("CPU per 1,000 calls: meter %s ms, its plugin %s ms, the same plugin called directly %s ms (%d calls in %.1f s through the meter)\n",
		per1000(meterCPU), per1000(childCPU), per1000(directCPU), 2**calls, elapsed.Seconds())
	fmt.Printf("Resident memory after the run: meter %.1f MiB, its plugin %.1f MiB, the plugin started directly %.1f MiB\n",
		rssMiB(meterPid), rssMiB(childPid), rssMiB(directPid))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
