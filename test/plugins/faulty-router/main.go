// faulty-router is a test-only Argo Rollouts traffic-router plugin that fails, delays or crashes on command.
// Otherwise it behaves like a correct router that touches no object: every call succeeds and VerifyWeight
// reports the last weight set for the Rollout as verified.
//
// Commands go to an HTTP endpoint (--control-address, or $FAULTY_ROUTER_CONTROL_ADDRESS; default 127.0.0.1:0,
// the bound address is written to stderr):
//
//	POST   /faults  {"method":"SetWeight","action":"fail","count":3,"message":"..."}   fail the next 3 SetWeight calls
//	POST   /faults  {"method":"VerifyWeight","action":"delay","count":2,"delayMs":400}  delay the next 2 by 400 ms
//	POST   /faults  {"method":"SetWeight","action":"crash"}                             exit(3) on the next call
//	POST   /faults  {"method":"VerifyWeight","action":"unverified","count":1}          answer NotVerified once
//	DELETE /faults                                                                      forget every fault
//	GET    /calls   {"SetWeight":12,...}                                                calls received per method
//	GET    /seconds {"SetWeight":0.52,...}                                              time spent inside each method
//
// "method" may be "*" (any method). A call takes at most one pending fault of each action, delay first.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	goPlugin "github.com/hashicorp/go-plugin"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	"github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"
)

type fault struct {
	Method    string `json:"method"`
	Action    string `json:"action"`
	Count     int    `json:"count"`
	DelayMs   int    `json:"delayMs"`
	Message   string `json:"message"`
	remaining int
}

type router struct {
	mu      sync.Mutex
	faults  []*fault
	calls   map[string]int
	seconds map[string]float64
	weights map[string]int32
}

var actions = []string{"delay", "unverified", "fail", "crash"}

// take consumes the method's pending faults (one of each action) and counts the call.
func (r *router) take(method string) map[string]*fault {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls[method]++
	taken := map[string]*fault{}
	for _, f := range r.faults {
		if f.remaining > 0 && (f.Method == method || f.Method == "*") && taken[f.Action] == nil {
			f.remaining--
			taken[f.Action] = f
		}
	}
	return taken
}

// apply runs the call's faults and returns the error to answer with, if any.
func (r *router) apply(method string) (types.RpcError, bool) {
	start := time.Now()
	defer func() {
		r.mu.Lock()
		r.seconds[method] += time.Since(start).Seconds()
		r.mu.Unlock()
	}()
	taken := r.take(method)
	if f := taken["delay"]; f != nil {
		time.Sleep(time.Duration(f.DelayMs) * time.Millisecond)
	}
	if taken["crash"] != nil {
		fmt.Fprintf(os.Stderr, "faulty-router: crashing on %s as commanded\n", method)
		os.Exit(3)
	}
	if f := taken["fail"]; f != nil {
		message := f.Message
		if message == "" {
			message = fmt.Sprintf("faulty-router: injected failure of %s", method)
		}
		return types.RpcError{ErrorString: message}, taken["unverified"] != nil
	}
	return types.RpcError{}, taken["unverified"] != nil
}

func rolloutKey(ro *v1alpha1.Rollout) string { return ro.Namespace + "/" + ro.Name }

func (r *router) InitPlugin() types.RpcError {
	err, _ := r.apply("InitPlugin")
	return err
}

func (r *router) UpdateHash(*v1alpha1.Rollout, string, string, []v1alpha1.WeightDestination) types.RpcError {
	err, _ := r.apply("UpdateHash")
	return err
}

func (r *router) SetWeight(ro *v1alpha1.Rollout, desiredWeight int32, _ []v1alpha1.WeightDestination) types.RpcError {
	err, _ := r.apply("SetWeight")
	if !err.HasError() {
		r.mu.Lock()
		r.weights[rolloutKey(ro)] = desiredWeight
		r.mu.Unlock()
	}
	return err
}

func (r *router) SetHeaderRoute(*v1alpha1.Rollout, *v1alpha1.SetHeaderRoute) types.RpcError {
	err, _ := r.apply("SetHeaderRoute")
	return err
}

func (r *router) SetMirrorRoute(*v1alpha1.Rollout, *v1alpha1.SetMirrorRoute) types.RpcError {
	err, _ := r.apply("SetMirrorRoute")
	return err
}

func (r *router) VerifyWeight(ro *v1alpha1.Rollout, desiredWeight int32, _ []v1alpha1.WeightDestination) (types.RpcVerified, types.RpcError) {
	err, unverified := r.apply("VerifyWeight")
	if err.HasError() || unverified {
		return types.NotVerified, err
	}
	r.mu.Lock()
	weight, ok := r.weights[rolloutKey(ro)]
	r.mu.Unlock()
	if ok && weight == desiredWeight {
		return types.Verified, err
	}
	return types.NotVerified, err
}

func (r *router) RemoveManagedRoutes(*v1alpha1.Rollout) types.RpcError {
	err, _ := r.apply("RemoveManagedRoutes")
	return err
}

func (r *router) Type() string {
	r.apply("Type")
	return "FaultyRouter"
}

func (r *router) control(w http.ResponseWriter, req *http.Request) {
	switch {
	case req.URL.Path == "/faults" && req.Method == http.MethodPost:
		var f fault
		if err := json.NewDecoder(req.Body).Decode(&f); err != nil || f.Method == "" || !validAction(f.Action) {
			http.Error(w, `want {"method":"<name>|*","action":"fail|delay|crash|unverified","count":k,"delayMs":d,"message":"..."}`, http.StatusBadRequest)
			return
		}
		if f.Count <= 0 {
			f.Count = 1
		}
		f.remaining = f.Count
		r.mu.Lock()
		r.faults = append(r.faults, &f)
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case req.URL.Path == "/faults" && req.Method == http.MethodDelete:
		r.mu.Lock()
		r.faults = nil
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case req.URL.Path == "/calls" && req.Method == http.MethodGet:
		r.reply(w, r.calls)
	case req.URL.Path == "/seconds" && req.Method == http.MethodGet:
		r.reply(w, r.seconds)
	default:
		http.NotFound(w, req)
	}
}

func (r *router) reply(w http.ResponseWriter, v any) {
	r.mu.Lock()
	body, _ := json.Marshal(v)
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

func validAction(action string) bool {
	for _, a := range actions {
		if a == action {
			return true
		}
	}
	return false
}

func main() {
	address := os.Getenv("FAULTY_ROUTER_CONTROL_ADDRESS")
	if address == "" {
		address = "127.0.0.1:0"
	}
	flag.StringVar(&address, "control-address", address, "address of the control endpoint")
	flag.Parse()

	r := &router{calls: map[string]int{}, seconds: map[string]float64{}, weights: map[string]int32{}}
	listener, err := net.Listen("tcp", address)
	if err != nil {
		fmt.Fprintf(os.Stderr, "faulty-router: control endpoint: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "faulty-router: control endpoint on http://%s\n", listener.Addr())
	go func() { _ = http.Serve(listener, http.HandlerFunc(r.control)) }()

	goPlugin.Serve(&goPlugin.ServeConfig{
		HandshakeConfig: goPlugin.HandshakeConfig{ProtocolVersion: 1, MagicCookieKey: "ARGO_ROLLOUTS_RPC_PLUGIN", MagicCookieValue: "trafficrouter"},
		Plugins:         goPlugin.PluginSet{"RpcTrafficRouterPlugin": &rpc.RpcTrafficRouterPlugin{Impl: r}},
	})
}
