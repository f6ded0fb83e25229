package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// goldenSizes are the sizes every golden screen is drawn at.
var goldenSizes = [][2]int{{80, 24}, {120, 40}}

// scene fills a console with a history worth looking at: an auto-approved
// call, one denied by a rule, one denied by the operator, one refused, one
// that failed with output, one running, and two waiting.
func scene(t *testing.T) *harness {
	t.Helper()
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "kernel").Stdout("Linux 6.18.2 x86_64 GNU/Linux\n")
	failing := f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/share").Exit(2)
	failing.Output = []exec.Chunk{
		{Stream: exec.Stdout, Data: []byte("/usr/share/doc/a.txt:12:TODO: write the manual\n/usr/share/doc/b.txt:3:\tTODO\x1b[31m red\x1b[0m\n")},
		{Stream: exec.Stderr, Data: []byte("grep: /usr/share/secret: Permission denied\n")},
	}
	f.Runner.Expect("uname", "machine").Hold = make(chan struct{})
	h := newHarness(t, f, func(o *Options) { o.NoColor = false })
	h.m.journal = "/home/me/.local/state/assent/journal.jsonl" // not the test's temporary one
	h.now.Add(42 * time.Second)                                // the console's clock runs ahead of the queue's first reading

	settle := func(tool string, args map[string]any) queue.ID {
		ch := f.submit(tool, args)
		ev := h.until(func(ev queue.Event) bool { return ev.Kind != queue.EventOutput && ev.Call.Status != queue.Approved })
		if ev.Call.Status == queue.Running {
			return ev.Call.ID
		}
		if ev.Call.Status == queue.Pending {
			return ev.Call.ID
		}
		f.result(ch)
		return ev.Call.ID
	}
	look := settle("look", map[string]any{"what": "kernel"})
	h.untilStatus(look, queue.Done)
	settle("burn", map[string]any{"x": "all"})
	denied := settle("grep_search", map[string]any{"pattern": "password", "path": "/usr"})
	h.pastGrace()
	h.press("d", "use the index instead", "enter")
	h.untilStatus(denied, queue.Denied)
	settle("look", map[string]any{})
	failed := settle("grep_search", map[string]any{"pattern": "TODO", "path": "/usr/share"})
	h.pastGrace()
	h.press("a")
	h.untilStatus(failed, queue.Done)
	settle("look", map[string]any{"what": "machine"})
	settle("grep_search", map[string]any{"pattern": "FIXME", "path": "/usr/lib"})
	settle("deploy", map[string]any{"format": "%Y-%m-%d", "token": "hunter2"})
	h.pastGrace()
	h.send(statusExpiredMsg{h.m.statusSeq})
	return h
}

// TestGolden_Screens compares the main screens, ANSI stripped, with
// testdata/TestGolden_Screens/*.golden (go test -update rewrites them).
func TestGolden_Screens(t *testing.T) {
	screens := []struct {
		name string
		keys []string
	}{
		{"pending", nil},
		{"secret", []string{"down"}},
		{"output", []string{"down", "down", "down"}},
		{"refused", []string{"down", "down", "down", "down"}},
		{"deny", []string{"d", "not now"}},
		{"edit-review", []string{"e", "ctrl+u", "grep -rn -- 'FIXME|XXX' /usr/lib /usr/share", "enter"}},
		{"always", []string{"A", "w", "ctrl+u", "/usr/**", "enter"}},
		{"connect", []string{"c"}},
		{"quit", []string{"q"}},
		{"session", []string{"s"}},
		{"help", []string{"?"}},
		{"output-search", []string{"down", "down", "down", "tab", "/", "todo", "enter"}},
		{"list-focused", []string{"tab", "G"}},
	}
	for _, s := range screens {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", s.name, size[0], size[1]), func(t *testing.T) {
				h := scene(t)
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				h.press(s.keys...)
				golden.RequireEqual(t, ansi.Strip(h.screen()))
			})
		}
	}
}
