package ui

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/queue"
)

// detailTitle names the call in the detail box's top edge.
func (m *Model) detailTitle(c *queue.Call) string {
	t := m.st.Title.Render(c.ID.String()+" "+clean(c.Tool, nil)) + m.st.Muted.Render(" · ")
	if c.Client != "" {
		t += clean(c.Client, nil) + m.st.Muted.Render(" · ")
	}
	s := stateOf(&m.st, c, m.now())
	if c.Ending == queue.Exited && c.Result != nil {
		return t + s.style.Render(fmt.Sprintf("exit %d", c.Result.ExitCode))
	}
	return t + s.style.Render(s.label)
}

// detailLines describes the call in full, wrapped to w cells: the program,
// every argv element on its own line, where and how it runs, and how it
// ended. Nothing is cut; the pane scrolls instead.
func (m *Model) detailLines(c *queue.Call, w int) []string {
	st := &m.st
	var lines []string
	add := func(s string, indent string) { lines = append(lines, wrap(s, w, indent)...) }
	// How the call was decided and ended comes first, where a short pane
	// still shows it; what runs follows.
	prose := func(s string) { lines = append(lines, wordWrap(s, w, "  ")...) }
	if c.Status == queue.Pending {
		prose(st.Pending.Render(decision(c)))
	} else {
		prose(st.Muted.Render("→ ") + decision(c))
	}
	if r := c.Result; r != nil {
		prose(m.resultLine(c))
	}
	cmd := c.Command
	if cmd.Path == "" {
		add(st.Warning.Render("not expanded: the arguments were refused"), "  ")
		m.argLines(c, w, &lines)
	} else {
		add(quoteArg(cmd.Path, c.Secrets), "    ")
		if a0 := cmd.Argv[0]; a0 != cmd.Path && a0 != filepath.Base(cmd.Path) {
			add(st.Muted.Render("  as argv[0] ")+quoteArg(a0, c.Secrets), "    ")
		}
		for _, a := range cmd.Argv[1:] {
			q := quoteArg(a, c.Secrets)
			if strings.HasPrefix(q, "$'") {
				add("  "+st.Warning.Render(q), "    ")
				lines = append(lines, st.Warning.Render("    "+iconWarning+" invisible characters shown as escapes"))
				continue
			}
			add("  "+q, "    ")
		}
	}
	var meta []string
	if cmd.Dir != "" {
		meta = append(meta, "cwd "+quoteArg(cmd.Dir, c.Secrets))
	}
	if cmd.Timeout > 0 {
		meta = append(meta, "timeout "+human.Duration(cmd.Timeout))
	}
	if len(meta) > 0 {
		add(st.Muted.Render(strings.Join(meta, " · ")), "  ")
	}
	for _, kv := range cmd.Env {
		k, v, _ := strings.Cut(kv, "=")
		add(st.Muted.Render("env +")+clean(k, c.Secrets)+"="+quoteArg(v, c.Secrets), "    ")
	}
	if cmd.Stdin != "" {
		preview := clean(cmd.Stdin, c.Secrets)
		add(st.Muted.Render(fmt.Sprintf("stdin %s: ", human.Size(int64(len(cmd.Stdin)))))+
			ansi.Truncate(preview, max(10, w-20), "…"), "  ")
	}
	if c.Shell {
		lines = append(lines, wordWrap(st.Warning.Render(iconWarning+" shell tool: it can run any program; never auto-approved"), w, "  ")...)
	}
	if c.Original != nil {
		add(st.Muted.Render("edited; the agent asked for:"), "  ")
		q := make([]string, len(c.Original.Argv))
		for i, a := range c.Original.Argv {
			q[i] = quoteArg(a, c.Secrets)
		}
		add(st.Muted.Render("  "+strings.Join(q, " ")), "    ")
	}
	return lines
}

// resultLine says how a call that ran ended: its exit status, the queue's
// account of what ended it when it did not exit by itself, the signal,
// time and output sizes. A call that never started has only the account.
func (m *Model) resultLine(c *queue.Call) string {
	r := c.Result
	if c.Started.IsZero() || c.Ending == queue.NotStarted {
		return m.st.Failed.Render(clean(c.EndingText(), c.Secrets))
	}
	parts := []string{fmt.Sprintf("exit %d", r.ExitCode)}
	if why := c.EndingText(); why != "" {
		parts = append(parts, clean(why, c.Secrets))
	}
	if r.Signal != "" {
		parts = append(parts, clean(r.Signal, nil))
	}
	parts = append(parts, human.Duration(c.Ended.Sub(c.Started)))
	out := fmt.Sprintf("stdout %s, stderr %s", human.Size(r.Stdout.Bytes), human.Size(r.Stderr.Bytes))
	if r.Stdout.Truncated || r.Stderr.Truncated {
		out += " (truncated)"
	}
	s := strings.Join(append(parts, out), " · ")
	if c.Ending != queue.Exited || r.ExitCode != 0 {
		return m.st.Failed.Render(s)
	}
	return m.st.OK.Render(s)
}

// argLines lists the arguments of a call that was never expanded.
func (m *Model) argLines(c *queue.Call, w int, lines *[]string) {
	keys := make([]string, 0, len(c.Args))
	for k := range c.Args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := maskValue(c.Args[k], c.Secrets)
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		text := fmt.Sprint(v)
		if enc.Encode(v) == nil {
			text = strings.TrimSuffix(b.String(), "\n")
		}
		*lines = append(*lines, wrap("  "+clean(k, nil)+"="+clean(text, nil), w, "    ")...)
	}
}

// maskValue masks secrets in a decoded JSON value before it is encoded
// again, so an escape the encoder adds cannot hide a secret from mask.
func maskValue(v any, secrets []string) any {
	switch v := v.(type) {
	case string:
		return mask(v, secrets)
	case []any:
		out := make([]any, len(v))
		for i, it := range v {
			out[i] = maskValue(it, secrets)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, it := range v {
			out[k] = maskValue(it, secrets)
		}
		return out
	}
	return v
}

// split divides the right column between the detail and the output of
// the call: a call that cannot have output yet gets all of it, and the
// detail takes what it needs up to a little more than half.
func (m *Model) split(e *entry) (detailH, outH int) {
	h := m.bodyHeight()
	if e == nil || e.call.Status == queue.Pending || e.call.Status == queue.Received ||
		(e.call.Status.Ended() && e.call.Started.IsZero()) {
		return h, 0
	}
	need := len(m.detailLines(&e.call, m.rightWidth()-3)) + 2
	detailH = max(5, min(need, h*11/20))
	if h-detailH < 4 {
		detailH = max(3, h-4)
	}
	return detailH, h - detailH
}

// maxDetailTop is the last line the detail can scroll to.
func (m *Model) maxDetailTop() int {
	e := m.selectedEntry()
	if e == nil {
		return 0
	}
	detailH, _ := m.split(e)
	return max(0, len(m.detailLines(&e.call, m.rightWidth()-3))-(detailH-2))
}

// rightView draws the detail and the output of the selected call.
func (m *Model) rightView(w, h int) []string {
	e := m.selectedEntry()
	if e == nil {
		return box(m.st.Border, m.st.Title.Render("call"), w, h, 1, nil)
	}
	detailH, outH := m.split(e)
	lines := m.detailLines(&e.call, w-3)
	top := max(0, min(m.detailTop, len(lines)-(detailH-2)))
	title := m.detailTitle(&e.call)
	if top > 0 {
		title = m.st.Muted.Render(iconMoreAbove+" ") + title
	}
	if top+detailH-2 < len(lines) {
		title = m.st.Muted.Render(iconMoreBelow+" J ") + title
	}
	out := box(m.st.Border, title, w, detailH, 1, lines[top:])
	if outH > 0 {
		out = append(out, m.outputView(e, w, outH)...)
	}
	return out
}
