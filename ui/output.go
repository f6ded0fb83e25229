package ui

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/queue"
)

// Bounds of the output pane's memory, beside the line count of Options.
const (
	// maxLineBytes breaks a line that never ends: a child writing without
	// newlines still fills lines the pane can show and drop.
	maxLineBytes = 4096
	// maxOutputBytes bounds the text kept for one call, however short its
	// lines are.
	maxOutputBytes = 4 << 20
)

// lineKind says where a line of the pane came from.
type lineKind uint8

const (
	lineStdout lineKind = iota
	lineStderr
	lineNote // the console's own remark, such as skipped output
)

// outLine is one line of a call's output, already made safe to draw.
type outLine struct {
	text string
	kind lineKind
}

// outputBuffer keeps the last lines of one call's output. Every byte a
// child wrote passes through render before it is kept, so nothing in the
// buffer can move the cursor, set the clipboard, open a link or hide
// itself: escapes, controls, bidi and zero-width characters arrive in the
// pane as visible text.
type outputBuffer struct {
	maxLines int
	call     *queue.Call
	lines    []outLine
	first    int64 // number of lines dropped before lines[0]
	size     int   // bytes of text in lines
	partial  [2][]byte
}

// end is the index after the last complete line.
func (b *outputBuffer) end() int64 { return b.first + int64(len(b.lines)) }

// add takes a chunk of one stream's output.
func (b *outputBuffer) add(stream exec.Stream, data []byte) {
	kind, p := lineStdout, &b.partial[0]
	if stream == exec.Stderr {
		kind, p = lineStderr, &b.partial[1]
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			*p = append(*p, data...)
			for len(*p) >= maxLineBytes {
				cut := runeCut(*p, maxLineBytes)
				b.push(outLine{b.render((*p)[:cut]), kind})
				*p = append((*p)[:0], (*p)[cut:]...)
			}
			return
		}
		line := data[:i]
		if len(*p) > 0 {
			line = append(*p, line...)
		}
		b.push(outLine{b.render(bytes.TrimSuffix(line, []byte{'\r'})), kind})
		*p = (*p)[:0]
		data = data[i+1:]
	}
}

// note adds a line of the console's own.
func (b *outputBuffer) note(text string) { b.push(outLine{text, lineNote}) }

// skipped notes output the console never received because it fell behind.
func (b *outputBuffer) skipped(n int64) {
	if n > 0 {
		b.note(fmt.Sprintf("… %s of output skipped: the console fell behind …", human.Size(n)))
	}
}

func (b *outputBuffer) push(l outLine) {
	b.lines = append(b.lines, l)
	b.size += len(l.text)
	for len(b.lines) > b.maxLines || (b.size > maxOutputBytes && len(b.lines) > 1) {
		b.size -= len(b.lines[0].text)
		b.lines[0] = outLine{}
		b.lines = b.lines[1:]
		b.first++
	}
}

// clear forgets every line.
func (b *outputBuffer) clear() {
	b.first += int64(len(b.lines))
	b.lines, b.size = nil, 0
	b.partial = [2][]byte{}
}

// tail returns the unfinished last line of each stream, rendered.
func (b *outputBuffer) tail() []outLine {
	var out []outLine
	for i, p := range b.partial {
		if len(p) > 0 {
			out = append(out, outLine{b.render(p), lineKind(i)})
		}
	}
	return out
}

// line returns the complete line at index i, which must lie in
// [first, end).
func (b *outputBuffer) line(i int64) outLine { return b.lines[i-b.first] }

// render makes raw output safe to draw: secrets masked, tabs expanded,
// and everything invisible or controlling written as a visible escape.
func (b *outputBuffer) render(raw []byte) string {
	s := maskSecrets(b.call, part{kind: partOutput}, string(raw))
	return exec.Escape(expandTabs(s))
}

// runeCut returns a cut point at or before n that does not split a UTF-8
// sequence.
func runeCut(p []byte, n int) int {
	if n >= len(p) {
		return len(p)
	}
	for cut := n; cut > n-utf8.UTFMax && cut > 0; cut-- {
		if utf8.RuneStart(p[cut]) {
			return cut
		}
	}
	return n
}

// expandTabs replaces tabs by spaces up to the next multiple of eight
// columns, counting one column per rune: a tab is harmless, but the pane
// measures text before drawing it and cannot know where a terminal's tab
// stops fall.
func expandTabs(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var sb strings.Builder
	col := 0
	for i, r := range s {
		if r == '\t' {
			n := 8 - col%8
			sb.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		sb.WriteString(s[i : i+size]) // invalid bytes stay as they are, for Escape to show
		col++
	}
	return sb.String()
}
