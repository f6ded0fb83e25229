package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/assent-sh/assent/queue"
)

// keyMap is the main screen's keys. Each action key is a binding with help
// text; the help bar shows those that apply to the selected call and the
// focused pane.
type keyMap struct {
	Approve   key.Binding
	Deny      key.Binding
	Edit      key.Binding
	Always    key.Binding
	Session   key.Binding
	Kill      key.Binding
	Up        key.Binding
	Down      key.Binding
	Focus     key.Binding
	PageUp    key.Binding
	PageDown  key.Binding
	Top       key.Binding
	Bottom    key.Binding
	MoreUp    key.Binding
	MoreDown  key.Binding
	OutEnd    key.Binding
	Filter    key.Binding
	Search    key.Binding
	Next      key.Binding
	Prev      key.Binding
	Connect   key.Binding
	Config    key.Binding
	Help      key.Binding
	Quit      key.Binding
	Interrupt key.Binding
}

func defaultKeyMap() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Approve:   b([]string{"a"}, "a", "approve"),
		Deny:      b([]string{"d"}, "d", "deny"),
		Edit:      b([]string{"e"}, "e", "edit"),
		Always:    b([]string{"A"}, "A", "always…"),
		Session:   b([]string{"s"}, "s", "session…"),
		Kill:      b([]string{"x"}, "x", "kill"),
		Up:        b([]string{"up", "k"}, "↑/k", "previous call"),
		Down:      b([]string{"down", "j"}, "↓/j", "next call"),
		Focus:     b([]string{"tab", "shift+tab"}, "tab", "next pane"),
		PageUp:    b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:  b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:       b([]string{"home", "g"}, "g", "top"),
		Bottom:    b([]string{"end", "G"}, "G", "bottom"),
		MoreUp:    b([]string{"K", "shift+up"}, "K", "details up a line"),
		MoreDown:  b([]string{"J", "shift+down"}, "J", "details down a line"),
		OutEnd:    b([]string{"f"}, "f", "follow output"),
		Filter:    b([]string{"/"}, "/", "filter"),
		Search:    b([]string{"/"}, "/", "search output"),
		Next:      b([]string{"n"}, "n", "next match"),
		Prev:      b([]string{"N"}, "N", "previous match"),
		Connect:   b([]string{"c"}, "c", "connect"),
		Config:    b([]string{"C"}, "C", "config change"),
		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q"}, "q", "quit"),
		Interrupt: b([]string{"ctrl+c"}, "ctrl+c", "quit"),
	}
}

// formKeys are the keys every dialog and input shares.
type formKeys struct {
	Confirm key.Binding
	Cancel  key.Binding
	Yes     key.Binding
	Up      key.Binding
	Down    key.Binding
	Widen   key.Binding
}

func defaultFormKeys() formKeys {
	return formKeys{
		Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Yes:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Up:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous")),
		Down:    key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next")),
		Widen:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "widen")),
	}
}

// forScreen returns the keymap with the actions that do not apply
// disabled, so help shows and keys match only what can happen: the
// selected call's actions (no remembered rule for a shell tool, which no
// rule approves), and the paging keys' words for the focused pane.
func (k keyMap) forScreen(c *entry, changeWaiting bool, focus paneID, searched bool) keyMap {
	pending := c != nil && c.call.Status == queue.Pending
	running := c != nil && c.running()
	k.Approve.SetEnabled(pending)
	k.Deny.SetEnabled(pending)
	k.Edit.SetEnabled(pending)
	k.Always.SetEnabled(pending && !c.call.Shell)
	k.Session.SetEnabled(pending && !c.call.Shell)
	k.Kill.SetEnabled(running)
	k.Config.SetEnabled(changeWaiting)
	k.Filter.SetEnabled(focus != paneOutput)
	k.Search.SetEnabled(focus == paneOutput)
	k.Next.SetEnabled(focus == paneOutput && searched)
	k.Prev.SetEnabled(focus == paneOutput && searched)
	k.OutEnd.SetEnabled(focus == paneOutput)
	switch focus {
	case paneList:
		k.Top.SetHelp("g", "first call")
		k.Bottom.SetHelp("G", "last call")
	case paneDetail:
		k.PageUp.SetHelp("pgup", "details up")
		k.PageDown.SetHelp("pgdn", "details down")
	case paneOutput:
		k.PageUp.SetHelp("pgup", "output up")
		k.PageDown.SetHelp("pgdn", "output down")
	}
	return k
}

// ShortHelp is the help bar.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Approve, k.Deny, k.Edit, k.Always, k.Session, k.Kill, k.Config,
		k.Help, k.Quit, k.Focus, k.PageDown, k.Filter, k.Search, k.Next, k.Connect}
}

// FullHelp is the help dialog.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Approve, k.Deny, k.Edit, k.Always, k.Session, k.Kill, k.Quit},
		{k.Up, k.Down, k.Focus, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.MoreUp, k.MoreDown, k.OutEnd, k.Filter, k.Search, k.Next, k.Prev},
		{k.Connect, k.Config, k.Help},
	}
}
