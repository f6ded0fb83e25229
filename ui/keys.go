package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/assent-sh/assent/queue"
)

// keyMap is the main screen's keys. Each action key is a binding with help
// text; the help bar shows those that apply to the selected call.
type keyMap struct {
	Approve   key.Binding
	Deny      key.Binding
	Edit      key.Binding
	Always    key.Binding
	Session   key.Binding
	Kill      key.Binding
	Up        key.Binding
	Down      key.Binding
	Top       key.Binding
	Bottom    key.Binding
	OutUp     key.Binding
	OutDown   key.Binding
	OutEnd    key.Binding
	MoreUp    key.Binding
	MoreDown  key.Binding
	Filter    key.Binding
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
		Session:   b([]string{"s"}, "s", "session"),
		Kill:      b([]string{"x"}, "x", "kill"),
		Up:        b([]string{"up", "k"}, "↑/k", "previous call"),
		Down:      b([]string{"down", "j"}, "↓/j", "next call"),
		Top:       b([]string{"home", "g"}, "g", "first call"),
		Bottom:    b([]string{"end", "G"}, "G", "last call"),
		OutUp:     b([]string{"pgup", "ctrl+u"}, "pgup", "scroll output up"),
		OutDown:   b([]string{"pgdown", "ctrl+d"}, "pgdn", "scroll output down"),
		OutEnd:    b([]string{"f"}, "f", "follow output"),
		MoreUp:    b([]string{"K", "shift+up"}, "K", "scroll details up"),
		MoreDown:  b([]string{"J", "shift+down"}, "J", "scroll details down"),
		Filter:    b([]string{"/"}, "/", "filter"),
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

// forCall returns the keymap with the actions that do not apply to the
// call (or to no call) disabled, so help shows and keys match only what
// can happen.
func (k keyMap) forCall(c *entry, changeWaiting bool) keyMap {
	pending := c != nil && c.call.Status == queue.Pending
	running := c != nil && c.running()
	k.Approve.SetEnabled(pending)
	k.Deny.SetEnabled(pending)
	k.Edit.SetEnabled(pending)
	k.Always.SetEnabled(pending)
	k.Session.SetEnabled(pending)
	k.Kill.SetEnabled(running)
	k.Config.SetEnabled(changeWaiting)
	return k
}

// ShortHelp is the help bar.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Approve, k.Deny, k.Edit, k.Always, k.Session, k.Kill, k.Config,
		k.Help, k.Quit, k.Filter, k.Connect}
}

// FullHelp is the help dialog.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Approve, k.Deny, k.Edit, k.Always, k.Session, k.Kill},
		{k.Up, k.Down, k.Top, k.Bottom, k.MoreUp, k.MoreDown},
		{k.OutUp, k.OutDown, k.OutEnd, k.Filter, k.Connect, k.Config, k.Help, k.Quit},
	}
}
