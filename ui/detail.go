package ui

import (
	"fmt"
	"strings"

	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/queue"
)

// section is a part of the detail pane. The marker of what lies off-screen
// names the section it is in, and an approval says which of the sections
// that run were not all on screen.
type section uint8

const (
	secHead  section = iota // how the call was decided and ended; warnings
	secArgv                 // the program and every argument
	secRun                  // where and how it runs: cwd, limits, sandbox
	secEnv                  // the environment the tool adds
	secStdin                // what is written to standard input
	secEdit                 // what the agent asked for, when edited
	numSections
)

// tracked reports whether the section is part of what runs, whose lines
// the console counts as seen or not.
func (s section) tracked() bool { return s == secArgv || s == secEnv || s == secStdin }

// detailLine is one drawn line of the detail pane and what it shows: a
// unit of its section (an argv element, an env entry, a line of stdin),
// or a heading (unit -1). first and last are the lines of its unit.
type detailLine struct {
	text        string
	sec         section
	unit        int
	first, last int
}

// detail is what the detail pane shows of one call at one width, with a
// summary of each section for the marker and the count of its units.
type detail struct {
	width   int
	lines   []detailLine
	units   [numSections]int
	summary [numSections]string
}

// detailBuilder writes a call's detail, line by line.
type detailBuilder struct {
	st *Styles
	c  *queue.Call
	w  int
	d  *detail
	// mask hides the call's secrets in text that is part p of the call.
	mask func(p part, text string) string
}

// line adds lines drawn as they are.
func (b *detailBuilder) line(sec section, unit int, texts ...string) {
	first := len(b.d.lines)
	for _, t := range texts {
		b.d.lines = append(b.d.lines, detailLine{text: t, sec: sec, unit: unit, first: first})
	}
	last := len(b.d.lines) - 1
	for i := first; i <= last; i++ {
		b.d.lines[i].last = last
	}
	if unit >= b.d.units[sec] {
		b.d.units[sec] = unit + 1
	}
}

// wrapped adds text wrapped to the pane, every character kept.
func (b *detailBuilder) wrapped(sec section, unit int, text, indent string) {
	b.line(sec, unit, wrap(text, b.w, indent)...)
}

// prose adds text wrapped at spaces.
func (b *detailBuilder) prose(sec section, text string) {
	b.line(sec, -1, wordWrap(text, b.w, "  ")...)
}

// block adds a multi-line value in full: a heading with its size, then
// every line numbered. Each line of stdin is a unit of its own; the lines
// of one argv element or env value are the one unit they belong to.
func (b *detailBuilder) block(sec section, unit int, name, text string) {
	lines := textLines(text)
	head := name + " · " + human.Count(len(lines), "line") + " · " + human.Size(int64(len(text)))
	if sec == secStdin {
		b.d.summary[sec] = head
	}
	b.line(sec, -1, "  "+b.st.Muted.Render(head))
	numW := len(fmt.Sprint(len(lines)))
	gutter := strings.Repeat(" ", numW+3)
	escaped := false
	for i, l := range lines {
		shown := clean(l)
		escaped = escaped || shown != l
		num := b.st.Muted.Render(fmt.Sprintf("  %*d ", numW, i+1))
		u := unit
		if sec == secStdin {
			u = i
		}
		wrappedText := wrap(shown, b.w-len(gutter), "")
		for j := range wrappedText {
			if j == 0 {
				wrappedText[j] = num + wrappedText[j]
			} else {
				wrappedText[j] = gutter + wrappedText[j]
			}
		}
		b.line(sec, u, wrappedText...)
	}
	if escaped {
		b.line(sec, -1, b.st.Warning.Render("  "+iconWarning+" invisible characters shown as escapes"))
	}
}

// argv adds the program and every argument, each on its own line and
// never cut; a multi-line argument is a numbered block.
func (b *detailBuilder) argv() {
	cmd := &b.c.Command
	size := 0
	for _, a := range cmd.Argv {
		size += len(a)
	}
	b.d.summary[secArgv] = "argv · " + human.Count(len(cmd.Argv), "element") + " · " + human.Size(int64(size))
	b.line(secArgv, -1, b.st.Muted.Render(b.d.summary[secArgv]))
	b.wrapped(secArgv, 0, quote(cmd.Path), "    ")
	if a0 := cmd.Argv[0]; a0 != cmd.Path && a0 != baseName(cmd.Path) {
		b.wrapped(secArgv, 0, b.st.Muted.Render("  as argv[0] ")+quote(a0), "    ")
	}
	for i, a := range cmd.Argv[1:] {
		i++
		a = b.mask(part{partArgv, i}, a)
		if strings.Contains(a, "\n") {
			b.block(secArgv, i, fmt.Sprintf("argv[%d]", i), a)
			continue
		}
		q := quote(a)
		if strings.HasPrefix(q, "$'") {
			b.wrapped(secArgv, i, "  "+b.st.Warning.Render(q), "    ")
			b.line(secArgv, i, b.st.Warning.Render("    "+iconWarning+" invisible characters shown as escapes"))
			continue
		}
		b.wrapped(secArgv, i, "  "+q, "    ")
	}
}

// textLines is text's lines as a reader counts them: a final newline
// ends the last line and starts none.
func textLines(text string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// baseName is the last element of a path.
func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }
