package ui

import (
	"encoding/json"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// alwaysDialog shows the exact rule "always allow" would save and lets the
// operator widen an argument to a glob before saving it. What an agent
// sent only ever becomes a literal value; a glob comes from the operator.
type alwaysDialog struct {
	id      queue.ID
	title   string
	rule    policy.Rule
	params  []string
	values  map[string][]string
	globs   map[string]string // the globs the operator widened to
	secrets []string
	cursor  int
	editing bool
	input   textinput.Model
	err     error
	w, h    int
	fk      formKeys
}

func newAlwaysDialog(st Styles, c *queue.Call, rule policy.Rule) *alwaysDialog {
	params := make([]string, 0, len(c.Values))
	for p := range c.Values {
		params = append(params, p)
	}
	slices.Sort(params)
	in := textinput.New()
	in.Prompt = "glob: "
	in.SetStyles(st.TextInput)
	in.KeyMap.Paste.SetEnabled(false) // the terminal's paste arrives as a message the console checks
	fk := defaultFormKeys()
	fk.Confirm.SetHelp("enter", "save rule and approve")
	secrets := slices.Clone(c.Secrets)
	for _, s := range c.Secrets {
		// The rule is shown as JSON, where a secret may be escaped.
		if b, err := json.Marshal(s); err == nil {
			secrets = append(secrets, strings.Trim(string(b), `"`))
		}
	}
	return &alwaysDialog{id: c.ID, title: "always allow " + c.ID.String() + " " + clean(c.Tool, nil),
		rule: rule, params: params, values: c.Values, globs: map[string]string{}, secrets: secrets,
		input: in, fk: fk}
}

func (d *alwaysDialog) init() tea.Cmd   { return nil }
func (d *alwaysDialog) about() queue.ID { return d.id }

func (d *alwaysDialog) keys() []key.Binding {
	if d.editing {
		confirm := d.fk.Confirm
		confirm.SetHelp("enter", "use this glob")
		return []key.Binding{confirm, d.fk.Cancel}
	}
	return []key.Binding{d.fk.Confirm, d.fk.Up, d.fk.Down, d.fk.Widen, d.fk.Cancel}
}

func (d *alwaysDialog) setSize(w, h int) {
	d.w, d.h = dialogWidth(w), h
	d.input.SetWidth(d.w - 12)
}

func (d *alwaysDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	if d.editing {
		return d.updateGlob(msg)
	}
	k, _ := msg.(tea.KeyPressMsg)
	switch {
	case isCancel(msg, d.fk):
		return nil, nil, nil
	case isConfirm(msg, d.fk):
		return nil, rememberAction{d.id, d.rule, true}, nil
	case key.Matches(k, d.fk.Up):
		d.cursor = max(0, d.cursor-1)
	case key.Matches(k, d.fk.Down):
		d.cursor = min(len(d.params)-1, d.cursor+1)
	case key.Matches(k, d.fk.Widen) && len(d.params) > 0:
		p := d.params[d.cursor]
		v := d.globs[p]
		if v == "" && len(d.values[p]) > 0 && mask(d.values[p][0], d.secrets) == d.values[p][0] {
			v = d.values[p][0]
		}
		d.input.SetValue(v)
		d.input.CursorEnd()
		d.editing, d.err = true, nil
		return d, nil, d.input.Focus()
	}
	return d, nil, nil
}

// updateGlob edits the glob for the parameter under the cursor. Esc
// closes the whole dialog, as everywhere.
func (d *alwaysDialog) updateGlob(msg tea.Msg) (dialog, action, tea.Cmd) {
	switch {
	case isCancel(msg, d.fk):
		return nil, nil, nil
	case isConfirm(msg, d.fk):
		p, glob := d.params[d.cursor], d.input.Value()
		r, err := d.rule.WidenArg(p, glob)
		if err != nil {
			d.err = err
			return d, nil, nil
		}
		d.rule, d.globs[p], d.err = r, glob, nil
		d.editing = false
		d.input.Blur()
		return d, nil, nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return d, nil, cmd
}

func (d *alwaysDialog) view(st *Styles) []string {
	inner := textWidth(d.w)
	lines := []string{"Approve, and save this rule to the remembered rules:", ""}
	lines = append(lines, wrap(st.Warning.Render(clean(d.rule.String(), d.secrets)), inner, "")...) // no indent: the rule reads exactly
	if len(d.secrets) > 0 {
		lines = append(lines, wordWrap(st.Warning.Render(iconWarning+
			" the call has secret values: the saved rule holds them, unmasked, unless you widen them"), inner, "  ")...)
	}
	lines = append(lines, "")
	if len(d.params) > 0 {
		lines = append(lines, st.Muted.Render("arguments (↑/↓ choose, w widen to a glob):"))
	}
	nameW := 0
	for _, p := range d.params {
		nameW = max(nameW, len(p))
	}
	for i, p := range d.params {
		marker := "  "
		if i == d.cursor {
			marker = iconSelected + " "
		}
		q := make([]string, len(d.values[p]))
		for j, v := range d.values[p] {
			q[j] = quoteArg(v, d.secrets)
		}
		text := marker + fit(clean(p, nil), nameW) + "  " + strings.Join(q, " ")
		if g, ok := d.globs[p]; ok {
			text += st.Warning.Render("  → glob " + clean(g, nil))
		}
		lines = append(lines, wrap(text, inner, "    ")...)
	}
	if d.editing {
		lines = append(lines, "", d.input.View())
	}
	if d.err != nil {
		lines = append(lines, wrap(st.Error.Render(clean(d.err.Error(), nil)), inner, "  ")...)
	}
	lines = append(lines, "", st.Muted.Render("enter save and approve · esc cancel (nothing is saved)"))
	return frame(st.Dialog, st.Title.Render(d.title), d.w, d.h, lines)
}
