package ui

import (
	"fmt"
	"strings"
)

// tokenHint is the part of the token the header shows: enough to tell
// tokens apart, too little to use.
func tokenHint(t string) string {
	if len(t) <= 4 {
		return ""
	}
	return "…" + t[len(t)-4:]
}

// headerView is the first line: counts on the left; endpoint, token hint,
// journal and config state on the right, dropped from the least
// important when the line is short.
func (m *Model) headerView() string {
	pending, running, done := m.calls.counts()
	st := &m.st
	left := " " + st.Brand.Render("assent") + st.Muted.Render(" · ")
	if pending > 0 {
		left += st.Pending.Render(fmt.Sprintf("%d pending", pending))
	} else {
		left += "0 pending"
	}
	left += st.Muted.Render(" · ") + fmt.Sprintf("%d running", running) +
		st.Muted.Render(" · ") + fmt.Sprintf("%d done", done)

	var parts []string // most important first
	if m.journalErr != nil {
		parts = append(parts, st.Error.Render(iconWarning+" journal failed: calls refused"))
	}
	if m.change != nil {
		parts = append(parts, st.Warning.Render(iconWarning+" config changed (C)"))
	}
	if c := m.o.Confinement; c != "" && m.o.Unconfined {
		parts = append(parts, st.Error.Render(iconWarning+" "+clean(c)))
	}
	if n := m.o.Console; n != "" {
		parts = append(parts, "console "+clean(n))
	}
	if m.o.Endpoint != "" {
		parts = append(parts, clean(m.o.Endpoint))
	}
	if h := tokenHint(m.o.Token); h != "" {
		parts = append(parts, st.Muted.Render("token "+clean(h)))
	}
	if m.journalErr == nil {
		parts = append(parts, st.Muted.Render("journal ok"))
	}
	if c := m.o.Confinement; c != "" && !m.o.Unconfined {
		parts = append(parts, st.Muted.Render(clean(c)))
	}
	room := m.width - width(left) - 2
	for len(parts) > 0 && width(strings.Join(parts, "  ")) > room {
		parts = parts[:len(parts)-1]
	}
	right := strings.Join(parts, "  ")
	gap := max(1, m.width-width(left)-width(right)-1)
	return fit(left+strings.Repeat(" ", gap)+right, m.width)
}
