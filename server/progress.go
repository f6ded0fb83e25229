package server

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/queue"
)

// Limits on what one progress message carries of a call's output: the
// newest lines, as a model glancing at a long-running call would want.
const (
	progressLines = 10
	progressBytes = 1000
	// keptOutput bounds the unsent output held per call between messages.
	keptOutput = 4 << 10
)

// progress reports one call to the client that sent a progress token:
// its newest output lines at most once per interval while it runs, and a
// heartbeat while it waits for an operator or runs silently. Sending
// never blocks (mcp-go drops a notification when the client's channel is
// full), so a slow client cannot hold up the call.
type progress struct {
	s     *Server
	ctx   context.Context
	token mcp.ProgressToken

	mu      sync.Mutex
	status  queue.Status
	since   time.Time  // when the call entered status
	fresh   queue.Tail // output not yet sent, its newest keptOutput bytes
	changed bool       // status changed since the last message

	wake   chan struct{}
	done   chan struct{}
	exited chan struct{}
}

// startProgress begins reporting for a call made with token.
func (s *Server) startProgress(ctx context.Context, token mcp.ProgressToken) *progress {
	p := &progress{s: s, ctx: ctx, token: token, since: time.Now(), fresh: queue.NewTail(keptOutput),
		wake: make(chan struct{}, 1), done: make(chan struct{}), exited: make(chan struct{})}
	go p.run()
	return p
}

// stop ends reporting; nothing is sent after it returns.
func (p *progress) stop() {
	close(p.done)
	<-p.exited
}

// watch is the call's queue.Watcher.
func (p *progress) watch(ev queue.Event) {
	p.mu.Lock()
	if ev.Kind == queue.EventOutput {
		p.fresh.Add(*ev.Output)
	} else if ev.Call.Status != p.status {
		p.status, p.since, p.changed = ev.Call.Status, time.Now(), true
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *progress) run() {
	defer close(p.exited)
	// mcp-go sends a line session nothing until it holds the first tool
	// set (lineSession.Initialized); a call made before then has its
	// first message sent once it does.
	select {
	case <-p.s.registered:
	case <-p.done:
		return
	}
	due := time.NewTimer(p.s.opts.ProgressInterval)
	defer due.Stop()
	last := time.Now() // when the last message went out, or the call began
	n := 0
	for {
		select {
		case <-p.done:
			return
		case <-p.wake:
		case <-due.C:
		}
		now := time.Now()
		msg, wait := p.next(now, now.Sub(last))
		if msg != "" {
			n++
			last = now
			err := p.s.mcp.SendNotificationToClient(p.ctx, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": p.token, "progress": float64(n), "message": msg})
			if err != nil {
				p.s.log.Debug("progress notification not sent", "err", err)
			}
		}
		due.Reset(wait)
	}
}

// next returns the message due now, or "", and how long from now the
// next one may fall due: a status change at once, new output once per
// interval (when the interval since the last message ends, not at some
// later tick), and a heartbeat when nothing was said for a heartbeat's
// time while the call waits or runs. The wait is counted as if the
// message returned were sent now.
func (p *progress) next(now time.Time, quiet time.Duration) (string, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	interval, beat := p.s.opts.ProgressInterval, p.s.opts.Heartbeat
	waited := human.Duration(now.Sub(p.since).Round(time.Second))
	msg := ""
	switch {
	case p.fresh.Len() > 0 && quiet >= interval:
		msg = newestLines(p.fresh.Bytes())
		p.changed = false
	case p.changed && p.status == queue.Pending:
		p.changed = false
		msg = "waiting for an operator to approve the call"
	case p.status == queue.Pending && quiet >= beat:
		msg = "still waiting for an operator to approve the call (" + waited + ")"
	case p.status == queue.Running && quiet >= beat:
		msg = "running, no new output (" + waited + ")"
	}
	if msg != "" {
		quiet = 0
	}
	switch {
	case p.fresh.Len() > 0:
		return msg, max(interval-quiet, 0)
	case p.changed && p.status == queue.Pending:
		return msg, 0
	}
	return msg, max(beat-quiet, 0)
}

// newestLines is the end of out: its last few lines, at most
// progressBytes, as valid UTF-8 without the final newline.
func newestLines(out []byte) string {
	out = bytes.TrimRight(out, "\n")
	cut := len(out)
	for i := 0; i < progressLines && cut > 0; i++ {
		cut = bytes.LastIndexByte(out[:cut], '\n')
		if cut < 0 {
			cut = 0
		}
	}
	if cut > 0 {
		cut++ // keep the line, not its leading newline
	}
	if len(out)-cut > progressBytes {
		cut = len(out) - progressBytes
	}
	s := strings.ToValidUTF8(string(out[cut:]), "")
	if cut > 0 && len(out)-cut >= progressBytes {
		s = fmt.Sprintf("…%s", s)
	}
	return s
}
