package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/queue"
)

// notifyKind is the escape sequence a terminal shows as a desktop
// notification.
type notifyKind uint8

const (
	notifyNone   notifyKind = iota
	notifyOSC9              // ESC ] 9 ; text BEL: iTerm2, WezTerm, kitty, Ghostty, Windows Terminal
	notifyOSC777            // ESC ] 777 ; notify ; title ; text BEL: VTE terminals, urxvt, foot
)

// notifier tells the terminal that a call waits for the operator, so that
// one who works in another window sees it. inTmux wraps the sequence in
// tmux's passthrough, which tmux hands to the terminal outside when its
// allow-passthrough option is on and drops silently otherwise.
type notifier struct {
	kind   notifyKind
	inTmux bool
}

// notifierFor chooses the notification from the environment. OSC 9 is the
// default: terminals that do not know it ignore it. OSC 777 goes to the
// terminals that know it instead (VTE, which sets VTE_VERSION; urxvt;
// foot). The Linux console and a dumb terminal get none: the first would
// print part of the sequence, the second cannot show one. GNU screen gets
// none: it has no passthrough the console could rely on. Inside tmux the
// terminal outside is chosen by the same rules (tmux keeps VTE_VERSION and
// the like from where it started) and the sequence passes through tmux.
func notifierFor(getenv func(string) string) notifier {
	term, program := getenv("TERM"), getenv("TERM_PROGRAM")
	n := notifier{kind: notifyOSC9, inTmux: getenv("TMUX") != "" || program == "tmux"}
	switch {
	case term == "" || term == "dumb" || term == "linux":
		n.kind = notifyNone
	case strings.HasPrefix(term, "screen") && !n.inTmux:
		n.kind = notifyNone
	case getenv("VTE_VERSION") != "", strings.HasPrefix(term, "rxvt"), strings.HasPrefix(term, "foot"):
		n.kind = notifyOSC777
	}
	return n
}

// sequence is the escape sequence that shows text as a notification with
// the title "assent". text must hold no control characters.
func (n notifier) sequence(text string) string {
	var s string
	switch n.kind {
	case notifyOSC9:
		s = "\x1b]9;" + text + "\a"
	case notifyOSC777:
		s = "\x1b]777;notify;assent;" + text + "\a"
	default:
		return ""
	}
	if n.inTmux {
		s = "\x1bPtmux;" + strings.ReplaceAll(s, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return s
}

// maxNotifyText bounds what a notification says of a call.
const maxNotifyText = 120

// announce rings the bell and sends a notification for a call that
// starts waiting, as the options allow. The text is escaped like all the
// console shows, and none of it can end the sequence early: every control
// character in it is written as a visible escape.
func (m *Model) announce(c *queue.Call) tea.Cmd {
	var cmds []tea.Cmd
	if !m.o.NoBell {
		cmds = append(cmds, tea.Raw(string(rune(ansi.BEL))))
	}
	if !m.o.NoNotify && m.notify.kind != notifyNone {
		text := c.ID.String() + " " + clean(c.Tool) + " waits for approval"
		if c.Client != "" {
			text += " (" + clean(c.Client) + ")"
		}
		text = ansi.Truncate(text, maxNotifyText, "…")
		cmds = append(cmds, tea.Raw(m.notify.sequence(text)))
	}
	return tea.Batch(cmds...)
}
