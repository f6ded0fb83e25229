package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// TestView_FillsTheScreen draws every screen at several sizes and checks
// it is exactly the terminal's size: no line wider, none missing.
func TestView_FillsTheScreen(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "kernel").Stdout(strings.Repeat("a long line of output that wraps ", 20) + "\nshort\n")
	h := newHarness(t, f, func(o *Options) { o.NoColor = false })
	f.result(f.submit("look", map[string]any{"what": "kernel"}))
	h.until(func(ev queue.Event) bool { return ev.Call.Status == queue.Done })
	long := strings.Repeat("x", 300)
	h.pending("grep_search", map[string]any{"pattern": long + " with spaces", "path": "/usr/share"})
	h.pastGrace()

	screens := []struct {
		name string
		keys []string
	}{
		{"pending", nil},
		{"done with output", []string{"down"}},
		{"deny", []string{"d"}},
		{"edit", []string{"e"}},
		{"edit review", []string{"e", "ctrl+u", "grep x /usr", "enter"}},
		{"always", []string{"A"}},
		{"help", []string{"?"}},
		{"connect", []string{"c"}},
		{"quit", []string{"q"}},
		{"filter", []string{"/", "gr"}},
	}
	sizes := [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 60}, {60, 12}, {59, 11}}
	for _, s := range screens {
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", s.name, size[0], size[1]), func(t *testing.T) {
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				h.press(s.keys...)
				defer h.press("esc", "esc", "up")
				lines := strings.Split(h.screen(), "\n")
				if size[0] < minWidth || size[1] < minHeight {
					if len(lines) > size[1] || !strings.Contains(strings.Join(lines, " "), "at least 60×12") {
						t.Errorf("too small a terminal got %d lines:\n%s", len(lines), h.screen())
					}
					for i, l := range lines {
						if w := ansi.StringWidth(l); w != size[0] {
							t.Errorf("line %d is %d cells wide, want %d: %q", i, w, size[0], l)
						}
					}
					return
				}
				if len(lines) != size[1] {
					t.Errorf("%d lines, want %d", len(lines), size[1])
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w != size[0] {
						t.Errorf("line %d is %d cells wide, want %d: %q", i, w, size[0], ansi.Strip(l))
					}
				}
			})
		}
	}
}

// TestView_ArgvNeverCut checks that every character of a long argument
// is on screen, wrapped, at the smallest size.
func TestView_ArgvNeverCut(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	arg := ""
	for i := range 40 {
		arg += fmt.Sprintf("w%02d ", i)
	}
	h.pending("grep_search", map[string]any{"pattern": arg, "path": "/usr/share"})
	var text strings.Builder
	for _, l := range strings.Split(h.screen(), "\n")[2:20] {
		// The detail pane's inner cells of this row.
		inner := ansi.Cut(l, h.m.listWidth()+2, h.m.width-1)
		text.WriteString(strings.TrimRight(inner, " "))
	}
	if got := strings.ReplaceAll(text.String(), " ", ""); !strings.Contains(got, strings.ReplaceAll("'"+arg+"'", " ", "")) {
		t.Errorf("the argument is not whole on screen:\n%s", h.screen())
	}
}

// TestView_DetailScrolls reaches argv beyond the pane by line (J), by
// page (pgdn) and at once (G), with the count of what lies below in the
// pane's edge.
func TestView_DetailScrolls(t *testing.T) {
	for _, tt := range []struct {
		name string
		keys []string
	}{
		{"by line", slices.Repeat([]string{"J"}, 30)},
		{"by page", []string{"pgdn", "pgdn"}},
		{"to the bottom", []string{"G"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, nil)
			c := queue.Call{ID: 1, Tool: "many", Status: queue.Pending,
				Command: exec.Command{Path: "/usr/bin/echo", Argv: []string{"echo"}}}
			for i := range 40 {
				c.Command.Argv = append(c.Command.Argv, fmt.Sprintf("arg-%02d", i))
			}
			h.send(eventMsg{ev: queue.Event{Kind: queue.EventPending, Call: c}})
			h.pastGrace()
			if scr := h.screen(); strings.Contains(scr, "arg-39") || !strings.Contains(scr, iconMoreBelow+" argv · 41 elements · 244 bytes · 25 below") {
				t.Fatalf("the last argument fits, or no count of what is below:\n%s", scr)
			}
			h.press(tt.keys...)
			if scr := h.screen(); !strings.Contains(scr, "arg-39") || !strings.Contains(scr, iconMoreAbove+" 25 above") ||
				strings.Contains(scr, "below") {
				t.Errorf("%v did not reach the last argument:\n%s", tt.keys, scr)
			}
			h.press("g")
			if scr := h.screen(); !strings.Contains(scr, "arg-00") || strings.Contains(scr, "above") {
				t.Errorf("g did not go back to the top:\n%s", scr)
			}
		})
	}
}

// TestView_LongArgvPages reaches the end of a 3000-character argument in
// a few pages, with the element count and what lies below in view.
func TestView_LongArgvPages(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	long := strings.Repeat("abcdefghij", 299) + "THE-END"
	h.pending("grep_search", map[string]any{"pattern": long, "path": "/usr/share"})
	h.pastGrace()
	if scr := h.screen(); !strings.Contains(scr, "argv · 5 elements · 2.9 KiB · ") || !strings.Contains(scr, " below") {
		t.Fatalf("no element count or marker:\n%s", scr)
	}
	presses := 0
	for ; presses < 10 && !strings.Contains(h.screen(), "THE-END"); presses++ {
		h.press("pgdn")
	}
	if !strings.Contains(h.screen(), "THE-END") || presses > 5 {
		t.Errorf("the end of the argument took %d pages:\n%s", presses, h.screen())
	}
}

// TestView_OutputScrolls pages the focused output pane: pgup stops
// following the tail, g shows the first line, G and f follow again.
func TestView_OutputScrolls(t *testing.T) {
	f := newFixture(t, nil)
	var out strings.Builder
	for i := range 200 {
		fmt.Fprintf(&out, "line %03d\n", i)
	}
	f.Runner.Expect("uname", "kernel").Stdout(out.String())
	h := newHarness(t, f, nil)
	f.result(f.submit("look", map[string]any{"what": "kernel"}))
	h.until(func(ev queue.Event) bool { return ev.Call.Status == queue.Done })
	if !strings.Contains(h.screen(), "line 199") {
		t.Fatalf("the tail is not shown:\n%s", h.screen())
	}
	h.press("tab")
	if h.m.focused() != paneOutput {
		t.Fatalf("tab focused %v, want the output", h.m.focused())
	}
	h.press("pgup")
	if strings.Contains(h.screen(), "line 199") || !strings.Contains(h.screen(), "scrolled") {
		t.Errorf("pgup still shows the tail:\n%s", h.screen())
	}
	h.press("f")
	if !strings.Contains(h.screen(), "line 199") {
		t.Errorf("f does not follow again:\n%s", h.screen())
	}
	h.press("g")
	if scr := h.screen(); !strings.Contains(scr, "line 000") || strings.Contains(scr, "line 199") {
		t.Errorf("g does not show the first line:\n%s", scr)
	}
	h.press("G")
	if scr := h.screen(); !strings.Contains(scr, "line 199") || strings.Contains(scr, "scrolled") {
		t.Errorf("G does not follow the tail:\n%s", scr)
	}
}

// TestView_Fatal replaces the screen and quits on q.
func TestView_Fatal(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	h.send(fatalMsg{errString("the queue stopped sending events")})
	if !strings.Contains(h.screen(), "the console stopped") || !strings.Contains(h.screen(), "the queue stopped sending events") {
		t.Errorf("fatal view:\n%s", h.screen())
	}
	h.press("a", "d")
	if h.quit || h.m.dialog != nil {
		t.Error("keys other than q acted in the fatal view")
	}
	h.press("q")
	if !h.quit {
		t.Error("q did not quit the fatal view")
	}
}

// The header names a console that is not the default one, and says loudly
// when calls run without the sandbox.
func TestHeader_ConsoleAndConfinement(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, func(o *Options) {
		o.Console, o.Confinement, o.Unconfined = "work", "unconfined: no Landlock", true
	})
	h.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	header := strings.SplitN(ansi.Strip(h.screen()), "\n", 2)[0]
	for _, want := range []string{"console work", "unconfined: no Landlock"} {
		if !strings.Contains(header, want) {
			t.Errorf("header %q lacks %q", header, want)
		}
	}
}
