package ui

import (
	"fmt"
	"strings"

	"github.com/assent-sh/assent/human"
)

// Unchanged lines of stdin shown around each change in the review; longer
// runs are counted, not shown.
const diffContext = 2

func (d *editDialog) view(st *Styles) []string {
	inner := textWidth(d.w)
	if d.reviewing {
		lines := d.reviewLines(st)
		top := min(d.reviewTop, max(0, len(lines)-1))
		title := d.title + " · review"
		if top > 0 {
			title += fmt.Sprintf(" · %s %d above", iconMoreAbove, top)
		}
		return frame(st.Dialog, st.Title.Render(title), d.w, d.h, lines[top:])
	}
	lines := wordWrap("Edit the command, quoted as a shell would read it (no shell runs it):", inner, "")
	lines = append(lines, strings.Split(d.area.View(), "\n")...)
	lines = append(lines, "")
	switch {
	case d.stdinOK:
		lines = append(lines, st.Muted.Render("stdin · "+human.Count(len(textLines(d.stdinArea.Value())), "line")+" (tab to edit):"))
		lines = append(lines, strings.Split(d.stdinArea.View(), "\n")...)
	default:
		lines = append(lines, wordWrap(st.Warning.Render(iconWarning+" stdin holds tabs, controls or invisible characters the editor cannot show: it is passed on unchanged"), inner, "  ")...)
	}
	if d.err != nil {
		lines = append(lines, "")
		lines = append(lines, wrap(st.Error.Render(clean(d.err.Error())), inner, "  ")...)
	}
	help := "enter review · ctrl+s review · esc cancel"
	if d.field == 1 {
		help = "ctrl+s review · tab back to the command · esc cancel"
	}
	lines = append(lines, "", st.Muted.Render(help))
	return frame(st.Dialog, st.Title.Render(d.title), d.w, d.h, lines)
}

// reviewLines are the review of an edit: the argv, word by word, and the
// lines of stdin that change with a little context, each marked kept (" "),
// removed ("-") or added ("+"). st may be nil to count them.
func (d *editDialog) reviewLines(st *Styles) []string {
	if st == nil {
		plain := NewStyles(true)
		st = &plain
	}
	inner := textWidth(d.w)
	lines := wordWrap("The edited command differs from what the agent asked for:", inner, "")
	lines = append(lines, "")
	show := func(op diffOp, text string) {
		style := st.Muted
		switch op.kind {
		case '-':
			style = st.Removed
		case '+':
			style = st.Added
		}
		for _, l := range wrap(string(op.kind)+" "+text, inner, "    ") {
			lines = append(lines, style.Render(l))
		}
	}
	for _, op := range diff(d.orig, d.argv) {
		show(op, quote(op.word))
	}
	if d.argv[0] != d.orig[0] {
		lines = append(lines, "", st.Warning.Render(iconWarning+" the program changed: it is looked up again in PATH"))
	}
	if d.stdin != d.origStdin {
		lines = append(lines, "", st.Muted.Render(fmt.Sprintf("stdin · %s, was %s:",
			human.Size(int64(len(d.stdin))), human.Size(int64(len(d.origStdin))))))
		ops := diff(splitLines(d.origStdin), splitLines(d.stdin))
		for i := 0; i < len(ops); {
			run := keptRun(ops, i)
			if run == 0 {
				show(ops[i], clean(ops[i].word))
				i++
				continue
			}
			// Kept lines show only next to a change: after the one
			// before them and before the one after them.
			head, tail := diffContext, diffContext
			if i == 0 {
				head = 0
			}
			if i+run == len(ops) {
				tail = 0
			}
			for j := i; j < i+run; j++ {
				switch {
				case j < i+head || j >= i+run-tail || run <= head+tail+1:
					show(ops[j], clean(ops[j].word))
				case j == i+head:
					lines = append(lines, st.Muted.Render("  … "+human.Count(run-head-tail, "unchanged line")))
				}
			}
			i += run
		}
	}
	lines = append(lines, "")
	lines = append(lines, wordWrap(st.Muted.Render("enter run it · e edit again · pgup/pgdn scroll · esc cancel"), inner, "")...)
	return lines
}

// keptRun is how many ops from i on are kept lines.
func keptRun(ops []diffOp, i int) int {
	n := 0
	for i+n < len(ops) && ops[i+n].kind == ' ' {
		n++
	}
	return n
}

// splitLines is text's lines; "" has none.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
