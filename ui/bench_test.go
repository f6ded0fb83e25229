package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// endedCalls are n calls that ran, oldest first, as a snapshot lists them.
func endedCalls(n int) []queue.Call {
	base := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	calls := make([]queue.Call, 0, n)
	for i := 1; i <= n; i++ {
		calls = append(calls, queue.Call{ID: queue.ID(i), Tool: "grep_search", Client: "claude-code", Status: queue.Done, Ending: queue.Exited,
			Decider:  queue.ByRule,
			Decision: policy.Decision{Action: policy.Allow, Rule: "read-only", Reason: "read-only tool"},
			Command: exec.Command{Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "--", fmt.Sprintf("pattern-%d", i), "/usr/share"},
				Dir: "/usr", Timeout: 30 * time.Second},
			Received: base.Add(time.Duration(i) * time.Second), Started: base.Add(time.Duration(i) * time.Second),
			Ended:  base.Add(time.Duration(i)*time.Second + 40*time.Millisecond),
			Result: &exec.Result{ExitCode: i % 3}})
	}
	return calls
}

// busyModel is a console with 1,000 calls in its history and 10,000
// lines of output for the selected one, at w×h.
func busyModel(tb testing.TB, w, h int) Model {
	tb.Helper()
	m := New(Options{Endpoint: "http://127.0.0.1:7323/mcp", Token: testToken})
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	base := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	m.now = func() time.Time { return base.Add(time.Hour) }
	m.update(tea.WindowSizeMsg{Width: w, Height: h})
	m.update(snapshotMsg{snap: queue.Snapshot{Calls: endedCalls(1000)}})
	var out strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&out, "/usr/share/doc/file-%05d.txt:%d: a line of output with \x1b[31mcolour\x1b[0m and more text\n", i, i%97)
	}
	m.update(eventMsg{ev: queue.Event{Kind: queue.EventOutput, Call: queue.Call{ID: 1000},
		Output: &exec.Chunk{Stream: exec.Stdout, Data: []byte(out.String())}}})
	if e := m.selectedEntry(); e == nil || e.call.ID != 1000 || e.out.end()-e.out.first != 10000 {
		tb.Fatalf("the busy model is not set up: %+v", e)
	}
	return m
}

// BenchmarkView draws one frame of a busy console at 200×60. A frame must
// stay well under 16 ms (60 frames a second).
func BenchmarkView(b *testing.B) {
	for _, scrolled := range []bool{false, true} {
		b.Run(map[bool]string{false: "following", true: "scrolled"}[scrolled], func(b *testing.B) {
			m := busyModel(b, 200, 60)
			if scrolled {
				m.scrollOutput(-5000)
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// BenchmarkSnapshot starts a console from a snapshot of n calls: the
// console's default history (1,000 ended calls kept of n), and every call
// kept. The cost should grow with n, not faster.
func BenchmarkSnapshot(b *testing.B) {
	for _, keep := range []string{"default-history", "all-kept"} {
		for _, n := range []int{1000, 10000, 100000} {
			b.Run(fmt.Sprintf("%s/%d", keep, n), func(b *testing.B) {
				calls := endedCalls(n)
				o := Options{}
				if keep == "all-kept" {
					o.History = n
				}
				b.ReportAllocs()
				for b.Loop() {
					m := New(o)
					m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
					m.update(snapshotMsg{snap: queue.Snapshot{Calls: calls}})
				}
			})
		}
	}
}

// BenchmarkUpdate_Output takes one 64 KiB chunk of output, as a flood
// delivers it: plain text, and text with an escape on every line (the
// escaper's slow path).
func BenchmarkUpdate_Output(b *testing.B) {
	for _, line := range []string{"plain", "escapes"} {
		b.Run(line, func(b *testing.B) {
			m := busyModel(b, 200, 60)
			text := "flood line with some plain text in it, of a usual length\n"
			if line == "escapes" {
				text = "flood line with some text and a \x1b[2K sequence in it\n"
			}
			data := []byte(strings.Repeat(text, (64<<10)/len(text)))
			ev := eventMsg{ev: queue.Event{Kind: queue.EventOutput, Call: queue.Call{ID: 1000},
				Output: &exec.Chunk{Stream: exec.Stdout, Data: data}}}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				m.update(ev)
			}
		})
	}
}
