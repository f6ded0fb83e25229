package ui

import (
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// alwaysDialog shows the exact rule "always allow" would save and lets the
// operator widen an argument to a glob before saving it. What an agent
// sent only ever becomes a literal value; a glob comes from the operator.
// The queue refuses a rule that no longer covers the call, and the dialog
// then shows why.
type alwaysDialog struct {
	title   string
	file    string // where the rule is saved
	rule    policy.Rule
	params  []string
	globs   map[string]string // the globs the operator widened to
	call    *queue.Call
	cursor  int
	editing bool
	input   textinput.Model
	err     error
	w, h    int
	fk      formKeys
}

func newAlwaysDialog(st Styles, c *queue.Call, rule policy.Rule, file string) *alwaysDialog {
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
	return &alwaysDialog{file: file, title: "always allow " + c.ID.String() + " " + clean(c.Tool),
		rule: rule, params: params, globs: map[string]string{}, call: c, input: in, fk: fk}
}

func (d *alwaysDialog) init() tea.Cmd     { return nil }
func (d *alwaysDialog) about() queue.ID   { return d.call.ID }
func (d *alwaysDialog) refused(err error) { d.err, d.editing = err, false }

func (d *alwaysDialog) keys() []key.Binding {
	if d.editing {
		confirm, cancel := d.fk.Confirm, d.fk.Cancel
		confirm.SetHelp("enter", "use this glob")
		cancel.SetHelp("esc", "keep the value")
		return []key.Binding{confirm, cancel}
	}
	return []key.Binding{d.fk.Confirm, d.fk.Up, d.fk.Down, d.fk.Widen, d.fk.Cancel}
}

func (d *alwaysDialog) setSize(w, h int) {
	d.w, d.h = dialogWidth(w), h
	d.input.SetWidth(textWidth(d.w) - len(d.input.Prompt) - 1) // and the cursor
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
		return nil, rememberAction{id: d.call.ID, rule: d.rule, always: true, from: d}, nil
	case key.Matches(k, d.fk.Up):
		d.cursor = max(0, d.cursor-1)
	case key.Matches(k, d.fk.Down):
		d.cursor = min(len(d.params)-1, d.cursor+1)
	case key.Matches(k, d.fk.Widen) && len(d.params) > 0:
		p := d.params[d.cursor]
		v, ok := d.globs[p]
		if !ok && !d.secret(p) {
			v = coverGlob(d.call.Values[p])
		}
		d.input.SetValue(v)
		d.input.CursorEnd()
		d.editing, d.err = true, nil
		return d, nil, d.input.Focus()
	}
	return d, nil, nil
}

// secret reports whether parameter p is secret: its values are shown
// masked, and widening does not start from them.
func (d *alwaysDialog) secret(p string) bool { return slices.Contains(d.call.SecretParams, p) }

// updateGlob edits the glob for the parameter under the cursor. Esc
// closes the field and keeps the value as it was; it saves nothing.
func (d *alwaysDialog) updateGlob(msg tea.Msg) (dialog, action, tea.Cmd) {
	switch {
	case isCancel(msg, d.fk):
		d.editing, d.err = false, nil
		d.input.Blur()
		return d, nil, nil
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
	if d.file != "" {
		lines = append(wrap("Approve, and save this rule to "+clean(d.file)+":", inner, "  "), "")
	}
	shown := clean(d.rule.StringMasked(d.call.SecretParams, secretMask))
	lines = append(lines, wrap(st.Warning.Render(shown), inner, "")...) // no indent: the rule reads exactly
	if len(d.call.Secrets) > 0 {
		lines = append(lines, wordWrap(st.Warning.Render(iconWarning+
			" the call has secret values: widen each to a glob to save the rule, which would hold them unmasked"), inner, "  ")...)
	}
	lines = append(lines, "")
	if len(d.params) > 0 {
		lines = append(lines, wordWrap(st.Muted.Render("arguments (↑/↓ choose, w widen to a glob; a list's glob must match every item):"), inner, "")...)
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
		q := make([]string, len(d.call.Values[p]))
		for j, v := range d.call.Values[p] {
			if d.secret(p) {
				v = secretMask
			}
			q[j] = quote(v)
		}
		text := marker + fit(clean(p), nameW) + "  " + strings.Join(q, " ")
		if g, ok := d.globs[p]; ok {
			text += st.Warning.Render("  → glob " + clean(g))
		}
		lines = append(lines, wrap(text, inner, "    ")...)
	}
	if d.editing {
		lines = append(lines, "", d.input.View())
	}
	if d.err != nil {
		lines = append(lines, "")
		lines = append(lines, wordWrap(st.Error.Render(iconDenied+" "+clean(d.err.Error())), inner, "  ")...)
	}
	lines = append(lines, "", st.Muted.Render("enter save and approve · esc cancel (nothing is saved)"))
	return frame(st.Dialog, st.Title.Render(d.title), d.w, d.h, lines)
}

// coverGlob is what the widen field starts with: the value itself, as a
// literal, for one value; for a list, the prefix and suffix its items
// share around a star, so that the rule still covers every item of the
// call it is made from ("*" when they share neither).
func coverGlob(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	prefix, suffix := vals[0], vals[0]
	for _, v := range vals[1:] {
		for !strings.HasPrefix(v, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
		for !strings.HasSuffix(v, suffix) {
			suffix = suffix[1:]
		}
	}
	if len(vals) == 1 {
		return policy.EscapeGlob(vals[0])
	}
	shortest := slices.MinFunc(vals, func(a, b string) int { return len(a) - len(b) })
	if len(prefix)+len(suffix) > len(shortest) {
		suffix = suffix[len(prefix)+len(suffix)-len(shortest):]
	}
	return policy.EscapeGlob(validPrefix(prefix)) + "*" + policy.EscapeGlob(validSuffix(suffix))
}

// validPrefix cuts a byte prefix back to whole characters.
func validPrefix(s string) string {
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// validSuffix cuts a byte suffix forward to whole characters.
func validSuffix(s string) string {
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[1:]
	}
	return s
}
