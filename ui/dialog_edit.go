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

// editDialog edits a call's argv in its quoted form, then shows the
// difference and asks again before the edited command runs.
type editDialog struct {
	id        queue.ID
	title     string
	orig      []string
	stdin     string // the call's stdin, passed on unchanged
	area      textarea.Model
	argv      []string // the parsed edit, while it is reviewed
	err       error
	reviewing bool
	w, h      int
	fk        formKeys
	again     key.Binding // from the review back to the text
}

func newEditDialog(st Styles, c *queue.Call) *editDialog {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.MaxHeight = 0
	ta.SetStyles(st.TextArea)
	// Enter reviews the edit; a command is one line.
	ta.KeyMap.InsertNewline.SetEnabled(false)
	ta.KeyMap.Paste.SetEnabled(false) // the terminal's paste arrives as a message the console checks
	ta.SetValue(c.Command.String())
	fk := defaultFormKeys()
	fk.Confirm.SetHelp("enter", "review")
	return &editDialog{id: c.ID, title: "edit " + c.ID.String() + " " + clean(c.Tool, nil),
		orig: slices.Clone(c.Command.Argv), stdin: c.Command.Stdin, area: ta, fk: fk,
		again: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit again"))}
}

func (d *editDialog) init() tea.Cmd   { return d.area.Focus() }
func (d *editDialog) about() queue.ID { return d.id }

func (d *editDialog) keys() []key.Binding {
	if d.reviewing {
		confirm := d.fk.Confirm
		confirm.SetHelp("enter", "run the edited command")
		return []key.Binding{confirm, d.again, d.fk.Cancel}
	}
	return []key.Binding{d.fk.Confirm, d.fk.Cancel}
}

func (d *editDialog) setSize(w, h int) {
	d.w, d.h = dialogWidth(w), h
	d.area.SetWidth(d.w - 4)
	d.area.SetHeight(max(3, min(8, h/3)))
}

func (d *editDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	k, _ := msg.(tea.KeyPressMsg)
	switch {
	case isCancel(msg, d.fk):
		return nil, nil, nil
	case d.reviewing && key.Matches(k, d.again):
		d.reviewing = false
		return d, nil, d.area.Focus()
	case isConfirm(msg, d.fk) && d.reviewing:
		return nil, editAction{d.id, d.argv, d.stdin}, nil
	case isConfirm(msg, d.fk):
		d.argv, d.err = queue.ParseEdit(d.area.Value())
		if d.err == nil && slices.Equal(d.argv, d.orig) {
			d.err = errors.New("the command is unchanged; esc, then a approves it as it is")
		}
		if d.err == nil {
			d.reviewing = true
			d.area.Blur()
		}
		return d, nil, nil
	case d.reviewing:
		return d, nil, nil
	}
	var cmd tea.Cmd
	d.area, cmd = d.area.Update(msg)
	d.err = nil
	return d, nil, cmd
}

func (d *editDialog) view(st *Styles) []string {
	var lines []string
	if !d.reviewing {
		lines = append(lines, wordWrap("Edit the command, quoted as a shell would read it (no shell runs it):", textWidth(d.w), "")...)
		lines = append(lines, "")
		lines = append(lines, strings.Split(d.area.View(), "\n")...)
		lines = append(lines, "")
		if d.err != nil {
			lines = append(lines, wrap(st.Error.Render(clean(d.err.Error(), nil)), textWidth(d.w), "  ")...)
		}
		lines = append(lines, st.Muted.Render("enter review the change · esc cancel"))
		return frame(st.Dialog, st.Title.Render(d.title), d.w, d.h, lines)
	}
	lines = append(lines, wordWrap("The edited command differs from what the agent asked for:", textWidth(d.w), "")...)
	lines = append(lines, "")
	for _, op := range diffArgv(d.orig, d.argv) {
		text := string(op.kind) + " " + quoteArg(op.word, nil)
		style := st.Muted
		switch op.kind {
		case '-':
			style = st.Removed
		case '+':
			style = st.Added
		}
		for _, l := range wrap(text, textWidth(d.w), "    ") {
			lines = append(lines, style.Render(l))
		}
	}
	if d.argv[0] != d.orig[0] {
		lines = append(lines, "", st.Warning.Render(iconWarning+" the program changed: it is looked up again in PATH"))
	}
	lines = append(lines, "", st.Muted.Render("enter run the edited command · e edit again · esc cancel"))
	return frame(st.Dialog, st.Title.Render(d.title+" · review"), d.w, d.h, lines)
}
