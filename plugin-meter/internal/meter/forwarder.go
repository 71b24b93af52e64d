package meter

import (
	"errors"
	"io"
	"net/rpc"
	"sync"
	"time"
)

// Forwarder sends each call of the controller to the child plugin as it came and records it. Calls run
// concurrently, as the controller makes them: net/rpc serves each request in its own goroutine and the child's
// client multiplexes them on one connection.
type Forwarder struct {
	kind     *Kind
	child    *rpc.Client
	recorder *Recorder
	timeout  time.Duration
	inflight sync.WaitGroup
	lost     sync.Once
	// onConnectionLost runs once, the first time a call finds the connection to the child gone.
	onConnectionLost func()
}

// NewForwarder forwards to child; timeout > 0 counts a call still unanswered after it as a timeout.
func NewForwarder(kind *Kind, child *rpc.Client, recorder *Recorder, timeout time.Duration, onConnectionLost func()) *Forwarder {
	return &Forwarder{kind: kind, child: child, recorder: recorder, timeout: timeout, onConnectionLost: onConnectionLost}
}

// Call forwards "Plugin.<method>" with the controller's arguments into reply and returns the child's error itself,
// so that net/rpc sends the controller the same text it would have had from the plugin. failed says, once the
// reply is in, whether the plugin answered with an error of its method's type.
//
// With a timeout, a call unanswered when it passes is counted as a timeout then (so a call that never returns is
// still seen) and not counted again when its answer comes; the answer is passed on whenever it comes.
func (f *Forwarder) Call(method string, args any, reply any, failed func() bool) error {
	f.inflight.Add(1)
	defer f.inflight.Done()
	start := time.Now()
	var timer *time.Timer
	if f.timeout > 0 {
		timer = time.AfterFunc(f.timeout, func() { f.recorder.Count(method, OutcomeTimeout) })
	}
	err := f.child.Call("Plugin."+method, &args, reply)
	elapsed := time.Since(start)
	counted := timer != nil && !timer.Stop()
	f.recorder.Observe(method, elapsed, classify(err, failed), !counted)
	if err != nil && connectionLost(err) && f.onConnectionLost != nil {
		f.lost.Do(f.onConnectionLost)
	}
	return err
}

// Drain waits until no call is in flight, or until the deadline.
func (f *Forwarder) Drain(deadline time.Duration) {
	done := make(chan struct{})
	go func() {
		f.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(deadline):
	}
}

func classify(err error, failed func() bool) Outcome {
	if err == nil {
		if failed() {
			return OutcomeError
		}
		return OutcomeOK
	}
	// A ServerError is the plugin's RPC server answering with an error (e.g. "invalid args"): the plugin answered.
	var serverError rpc.ServerError
	if errors.As(err, &serverError) {
		return OutcomeError
	}
	return OutcomeTransport
}

// connectionLost: net/rpc's client reports a closed connection as ErrShutdown, and a connection that ended while
// calls were pending as io.ErrUnexpectedEOF.
func connectionLost(err error) bool {
	return errors.Is(err, rpc.ErrShutdown) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}
