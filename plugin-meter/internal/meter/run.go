package meter

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/rpc"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goPlugin "github.com/hashicorp/go-plugin"
)

// Config is what the flags say (cmd/rollscope-plugin-meter).
type Config struct {
	Kind *Kind
	// Name is the plugin's name as registered in argo-rollouts-config (the `plugin` label).
	Name       string
	PluginPath string
	PluginArgs []string
	// SHA256, when set, must be the child's file's sha256 (hex) or the meter refuses to start it.
	SHA256         string
	MetricsAddress string
	StateDir       string
	CallTimeout    time.Duration
}

// Run is the meter's life: check and start the child, serve the controller until it ends the plugin, and exit
// with the child. It returns the process's exit code.
func Run(cfg Config) int {
	// go-plugin's Serve points os.Stderr at a stream the controller discards; the process's own stderr, which the
	// controller logs, is kept here first.
	log := &lineWriter{w: os.Stderr}
	logf := func(format string, args ...any) {
		fmt.Fprintf(log, "rollscope-plugin-meter: %s: %s\n", cfg.Name, fmt.Sprintf(format, args...))
	}

	if cookie := os.Getenv("ARGO_ROLLOUTS_RPC_PLUGIN"); cookie != "" && cookie != cfg.Kind.CookieValue {
		logf("started as a %q plugin but --kind=%s expects %q: register the meter under the plugin kind it fronts", cookie, cfg.Kind.Name, cfg.Kind.CookieValue)
		return 1
	}
	if cfg.SHA256 != "" {
		if err := VerifySHA256(cfg.PluginPath, cfg.SHA256); err != nil {
			logf("%v", err)
			return 1
		}
	}

	recorder, err := OpenRecorder(cfg.Kind, cfg.Name, cfg.StateDir)
	if err != nil {
		logf("state directory %s not usable (%v): counts and restarts start from zero in each meter process", cfg.StateDir, err)
	}
	stopFlushing := make(chan struct{})
	go recorder.FlushEvery(5*time.Second, stopFlushing, logf)
	if cfg.MetricsAddress != "" {
		go ServeMetrics(cfg.MetricsAddress, recorder, logf)
	}

	client := goPlugin.NewClient(&goPlugin.ClientConfig{
		HandshakeConfig: cfg.Kind.Handshake(),
		Plugins:         goPlugin.PluginSet{cfg.Kind.Dispense: ChildPlugin{}},
		Cmd:             childCommand(cfg.PluginPath, cfg.PluginArgs),
		// The child's stderr goes to ours line by line, as the controller would have read it from the plugin.
		Stderr: log,
		Logger: hclog.New(&hclog.LoggerOptions{Name: "rollscope-plugin-meter", Output: log, Level: hclog.Info}),
	})
	child, err := dispense(client, cfg.Kind)
	if err != nil {
		logf("starting %s: %v", cfg.PluginPath, err)
		client.Kill()
		close(stopFlushing)
		_ = recorder.Flush()
		return 1
	}

	var exitOnce sync.Once
	var forwarder *Forwarder
	// exit ends the meter with its child: the controller's next ping then fails, and it starts the plugin again.
	exit := func(code int, why string) {
		exitOnce.Do(func() {
			logf("%s; exiting so that the controller restarts the plugin", why)
			forwarder.Drain(2 * time.Second)
			// The last replies are written by net/rpc after the methods return.
			time.Sleep(100 * time.Millisecond)
			client.Kill()
			close(stopFlushing)
			if err := recorder.Flush(); err != nil {
				logf("writing the state file: %v", err)
			}
			os.Exit(code)
		})
	}
	forwarder = NewForwarder(cfg.Kind, child, recorder, cfg.CallTimeout, func() { go exit(1, "lost the connection to the plugin") })

	go func() {
		for !client.Exited() {
			time.Sleep(100 * time.Millisecond)
		}
		exit(1, "the plugin process exited")
	}()
	go func() {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM)
		<-signals
		exit(0, "terminated")
	}()

	goPlugin.Serve(&goPlugin.ServeConfig{
		HandshakeConfig: cfg.Kind.Handshake(),
		Plugins:         goPlugin.PluginSet{cfg.Kind.Dispense: &ServerPlugin{Forwarder: forwarder}},
	})
	// The controller ended the plugin (go-plugin's Kill asks the server to quit first).
	exitOnce.Do(func() {
		client.Kill()
		close(stopFlushing)
		if err := recorder.Flush(); err != nil {
			logf("writing the state file: %v", err)
		}
	})
	return 0
}

func dispense(client *goPlugin.Client, kind *Kind) (*rpc.Client, error) {
	protocol, err := client.Client()
	if err != nil {
		return nil, err
	}
	raw, err := protocol.Dispense(kind.Dispense)
	if err != nil {
		return nil, err
	}
	child, ok := raw.(*rpc.Client)
	if !ok {
		return nil, fmt.Errorf("the plugin does not speak net/rpc")
	}
	return child, nil
}

// childCommand starts the plugin as the controller would (exec.Command(path, args...)); go-plugin adds the meter's
// environment, which is the controller's.
func childCommand(path string, args []string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	setParentDeathSignal(cmd)
	return cmd
}

// VerifySHA256 fails unless the file's sha256 is want (hex, any case).
func VerifySHA256(path, want string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("refusing to start the plugin: %w", err)
	}
	defer f.Close()
	hash := sha256.New()
	if _, err := io.Copy(hash, f); err != nil {
		return fmt.Errorf("refusing to start the plugin: reading %s: %w", path, err)
	}
	got := hex.EncodeToString(hash.Sum(nil))
	if !strings.EqualFold(got, strings.TrimSpace(want)) {
		return fmt.Errorf("refusing to start the plugin: sha256 of %s is %s, --sha256 expects %s", path, got, want)
	}
	return nil
}

// lineWriter writes whole lines, one writer at a time (the child's stderr, go-plugin's logger and the meter's own
// messages share the process's stderr).
type lineWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, p...)
	for {
		i := bytes.IndexByte(l.pending, '\n')
		if i < 0 {
			break
		}
		if _, err := l.w.Write(l.pending[:i+1]); err != nil {
			return 0, err
		}
		l.pending = l.pending[i+1:]
	}
	return len(p), nil
}
