package main

import (
	"bufio"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
)

// callWriter prints the calls `assent log` streams: a table, or one JSON
// object per call. The table's columns are sized from the first calls it
// lists (up to sizingRows of them, each column up to maxPadded), so the
// header lines up with the rows; a later, wider cell widens its column
// from then on. Following a journal, rows go out as they come, so the
// columns start at widths that hold their usual contents.
type callWriter struct {
	w       *bufio.Writer
	json    *json.Encoder
	follow  bool // flush each call as it comes
	widths  []int
	held    [][]string // rows sizing the columns, before the header is printed
	started bool       // the header is printed
}

// logColumns are the table's columns. ARGV comes last so a long command
// does not push the others off the screen.
func logColumns() []string {
	return []string{"TIME", "ID", "CLIENT", "TOOL", "DECISION", "DECIDER", "ENDING", "EXIT", "DURATION", "REASON", "ARGV"}
}

// logMinWidths are the columns' widths before any row widens them: what
// their usual contents take, so a followed table lines up from its first
// row. ID holds a journal's call id up to the 99th call of a process
// (20261201T234450Z-58bc858f4791-99), DECIDER the default policy's rules
// (rule default:secret-files).
func logMinWidths() []int { return []int{19, 32, 11, 12, 8, 25, 11, 4, 8, 24} }

// maxPadded is the widest a column is padded to; a longer cell pushes the
// rest of its row along rather than widening every row after it.
const maxPadded = 40

// sizingRows is how many rows the table holds back to size its columns
// from: enough for a screenful, and little memory.
const sizingRows = 200

func newCallWriter(w io.Writer, asJSON, follow bool) *callWriter {
	c := &callWriter{w: bufio.NewWriter(w), follow: follow, widths: logMinWidths()}
	if asJSON {
		c.json = json.NewEncoder(c.w)
	}
	return c
}

// write prints one call. Following a journal, each call is flushed as it
// comes; otherwise the buffer flushes itself.
func (c *callWriter) write(call journal.Call) error {
	if c.json != nil {
		if err := c.json.Encode(call); err != nil {
			return err
		}
		return c.flushFollowing()
	}
	cells := callCells(call)
	if c.started {
		c.row(cells)
		return c.flushFollowing()
	}
	c.held = append(c.held, cells)
	if c.follow || len(c.held) == sizingRows {
		c.start()
	}
	return c.flushFollowing()
}

// callCells are a call's cells in the table, each shown as the console
// would: nothing an agent sent reaches the terminal raw.
func callCells(call journal.Call) []string {
	argv := make([]string, len(call.Argv))
	for i, a := range call.Argv {
		argv[i] = displayWord(a)
	}
	return []string{
		call.Time.Local().Format("2006-01-02 15:04:05"), displayWord(call.ID), orDash(displayWord(call.Client)),
		orDash(displayWord(call.Tool)), orDash(string(call.Decision)), decider(call), ending(call), exitStatus(call),
		formatDuration(call.Duration), orDash(exec.Escape(call.Reason)), strings.Join(argv, " "),
	}
}

// start sizes the columns from the rows held, then prints the header and
// them.
func (c *callWriter) start() {
	for _, cells := range c.held {
		c.widen(cells)
	}
	c.row(logColumns())
	for _, cells := range c.held {
		c.row(cells)
	}
	c.held, c.started = nil, true
}

func (c *callWriter) flushFollowing() error {
	if c.follow {
		return c.w.Flush()
	}
	return nil
}

// widen grows the columns' widths to hold cells, each up to maxPadded.
// The last column is not padded.
func (c *callWriter) widen(cells []string) {
	for i, cell := range cells[:len(cells)-1] {
		if n := utf8.RuneCountInString(cell); n > c.widths[i] && n <= maxPadded {
			c.widths[i] = n
		}
	}
}

// row writes cells padded to the columns' widths, which only grow.
func (c *callWriter) row(cells []string) {
	c.widen(cells)
	for i, cell := range cells {
		c.w.WriteString(cell)
		if i == len(cells)-1 {
			break
		}
		c.w.WriteString(strings.Repeat(" ", max(c.widths[i]-utf8.RuneCountInString(cell), 0)+2))
	}
	c.w.WriteByte('\n')
}

// flush prints the rows still held and writes out the buffer.
func (c *callWriter) flush() error {
	if len(c.held) > 0 {
		c.start()
	}
	return c.w.Flush()
}

// decider is the DECIDER column: who settled the call, with a rule named
// short.
func decider(c journal.Call) string {
	if c.Decider == journal.ByRule && c.Rule != "" {
		return "rule " + ruleName(c.Rule)
	}
	return orDash(displayWord(string(c.Decider)))
}

// ruleName is how a table names a rule: short, with invisible characters
// escaped, and unquoted, since "rule" before it already says what it is.
func ruleName(rule string) string { return exec.Escape(shortRule(rule)) }

// shortRule names a rule without its file's directories: a rule with no id
// is known as FILE#INDEX, and the whole path of FILE only widens the table.
func shortRule(rule string) string {
	i := strings.LastIndexByte(rule, '#')
	if i <= 0 || i == len(rule)-1 || strings.Trim(rule[i+1:], "0123456789") != "" {
		return rule
	}
	return filepath.Base(rule[:i]) + rule[i:]
}

// ending is the ENDING column: how the call ended, or where its life
// stopped when it has not.
func ending(c journal.Call) string {
	switch {
	case c.Ending != "":
		return string(c.Ending)
	case c.State == journal.Interrupted:
		return "interrupted"
	case c.State == journal.Started:
		return "running"
	}
	return "pending"
}

// exitStatus is the EXIT column: the status and signal when the call ran.
func exitStatus(c journal.Call) string {
	switch {
	case c.Exit != nil && c.Signal != "":
		return strconv.Itoa(*c.Exit) + " " + displayWord(c.Signal)
	case c.Exit != nil:
		return strconv.Itoa(*c.Exit)
	}
	return "-"
}

// formatDuration is how `assent log` writes a duration: to the millisecond,
// "-" for none. It is the one place it does.
func formatDuration(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return d.Round(time.Millisecond).String()
}

func orDash(s string) string {
	if s == "" || s == "''" {
		return "-"
	}
	return s
}

// displayWord shows one argv element (or any text from the journal) as the
// console does: quoted when it needs it, with control, bidi, zero-width and
// other invisible characters as escapes. Nothing an agent sent reaches the
// terminal raw.
func displayWord(s string) string { return exec.Quote(s) }
