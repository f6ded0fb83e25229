package ui

import (
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// editDialog edits a call's argv in its quoted form and its stdin as
// text, then shows the difference and asks again before the edited
// command runs.
type editDialog struct {
	id        queue.ID
	title     string
	orig      []string
	origStdin string
	area      textarea.Model // the command, quoted
	stdinArea textarea.Model
	// stdinOK says the stdin can be edited: the editor holds it exactly
	// and can draw it. Otherwise it is passed on unchanged.
	stdinOK   bool
	field     int // 0 the command, 1 the stdin
	argv      []string
	stdin     string // the edit, while it is reviewed
	err       error
	reviewing bool
	reviewTop int
	w, h      int
	fk        formKeys
	again     key.Binding // from the review back to the text
	next      key.Binding // between the command and the stdin
	review    key.Binding // review from either field
	pgUp      key.Binding
	pgDown    key.Binding
}

func newEditDialog(st Styles, c *queue.Call) *editDialog {
	ta := newEditArea(st)
	// Enter reviews the edit; a command is one line.
	ta.KeyMap.InsertNewline.SetEnabled(false)
	ta.SetValue(c.Command.String())
	in := newEditArea(st)
	in.ShowLineNumbers = true
	in.SetValue(c.Command.Stdin)
	fk := defaultFormKeys()
	fk.Confirm.SetHelp("enter", "review")
	return &editDialog{id: c.ID, title: "edit " + c.ID.String() + " " + clean(c.Tool),
		orig: slices.Clone(c.Command.Argv), origStdin: c.Command.Stdin, area: ta, stdinArea: in,
		stdinOK: in.Value() == c.Command.Stdin && drawable(c.Command.Stdin), fk: fk,
		again:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit again")),
		next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "command/stdin")),
		review: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review")),
		pgUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll")),
		pgDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll"))}
}

// newEditArea is a text area that takes no paste of its own: the
// terminal's paste arrives as a message the console checks first.
func newEditArea(st Styles) textarea.Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.MaxHeight = 0
	ta.CharLimit = 0
	ta.SetStyles(st.TextArea)
	ta.KeyMap.Paste.SetEnabled(false)
	return ta
}

// drawable reports whether every line of s shows as itself: the console's
// one escape function would leave it as it is (no tabs, controls or
// invisible characters), so a text area may draw it raw.
func drawable(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if clean(l) != l {
			return false
		}
	}
	return true
}

func (d *editDialog) init() tea.Cmd   { return d.area.Focus() }
func (d *editDialog) about() queue.ID { return d.id }

func (d *editDialog) keys() []key.Binding {
	if d.reviewing {
		confirm := d.fk.Confirm
		confirm.SetHelp("enter", "run the edited command")
		return []key.Binding{confirm, d.again, d.pgDown, d.fk.Cancel}
	}
	keys := []key.Binding{d.review}
	if d.field == 0 {
		keys = append(keys, d.fk.Confirm)
	}
	if d.stdinOK {
		keys = append(keys, d.next)
	}
	return append(keys, d.fk.Cancel)
}

func (d *editDialog) setSize(w, h int) {
	d.w, d.h = dialogWidth(w), h
	d.area.SetWidth(textWidth(d.w))
	d.area.SetHeight(max(2, min(6, h/5)))
	d.stdinArea.SetWidth(textWidth(d.w))
	d.stdinArea.SetHeight(max(3, min(12, h/3)))
}

func (d *editDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	k, _ := msg.(tea.KeyPressMsg)
	switch {
	case isCancel(msg, d.fk):
		return nil, nil, nil
	case d.reviewing:
		switch {
		case key.Matches(k, d.again):
			d.reviewing = false
			return d, nil, d.focusField()
		case isConfirm(msg, d.fk):
			return nil, editAction{d.id, d.argv, d.stdin}, nil
		case key.Matches(k, d.pgUp):
			d.reviewTop = max(0, d.reviewTop-max(1, d.h-6))
		case key.Matches(k, d.pgDown):
			d.reviewTop = min(d.reviewTop+max(1, d.h-6), max(0, len(d.reviewLines(nil))-1))
		}
		return d, nil, nil
	case key.Matches(k, d.next) && d.stdinOK:
		d.field = 1 - d.field
		return d, nil, d.focusField()
	case key.Matches(k, d.review), isConfirm(msg, d.fk) && d.field == 0:
		d.startReview()
		return d, nil, nil
	}
	var cmd tea.Cmd
	if d.field == 1 {
		d.stdinArea, cmd = d.stdinArea.Update(msg)
	} else {
		d.area, cmd = d.area.Update(msg)
	}
	d.err = nil
	return d, nil, cmd
}

// focusField gives the keys to the field being edited.
func (d *editDialog) focusField() tea.Cmd {
	if d.field == 1 {
		d.area.Blur()
		return d.stdinArea.Focus()
	}
	d.stdinArea.Blur()
	return d.area.Focus()
}

// startReview reads the edit back and, when it is a command that differs
// from the agent's, shows the difference.
func (d *editDialog) startReview() {
	d.argv, d.err = queue.ParseEdit(d.area.Value())
	d.stdin = d.origStdin
	if d.stdinOK {
		d.stdin = d.stdinArea.Value()
	}
	if d.err == nil && slices.Equal(d.argv, d.orig) && d.stdin == d.origStdin {
		d.err = errors.New("the command is unchanged; esc, then a approves it as it is")
	}
	if d.err == nil {
		d.reviewing, d.reviewTop = true, 0
		d.area.Blur()
		d.stdinArea.Blur()
	}
}
