package ui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/queue"
)

// listDecider is who approved a call, for the list's last column; a
// denial already names its decider in the state.
func listDecider(c *queue.Call) string {
	switch c.Status {
	case queue.Denied, queue.Refused, queue.Cancelled:
		return ""
	}
	if c.Original != nil {
		return "edited"
	}
	return deciderLabel(c)
}

// listView draws the queue list box, w×h cells.
func (m *Model) listView(w, h int) []string {
	inner, rows := w-2, h-2
	shown := m.calls.shown
	end := min(len(shown), m.listTop+rows)
	visible := shown[min(m.listTop, end):end]
	now := m.now()

	// Natural widths of each column; the client and who approved are
	// shown only when the tool and the state fit beside them.
	idW, toolW, stateW, clientW, deciderW := 0, 4, 0, 0, 0
	states := make([]state, len(visible))
	for i, e := range visible {
		states[i] = stateOf(&m.st, &e.call, now)
		if e.call.Status == queue.Running {
			states[i].label = "running" // the detail shows for how long
		}
		idW = max(idW, len(e.call.ID.String()))
		toolW = max(toolW, min(24, ansi.StringWidth(clean(e.call.Tool, nil))))
		stateW = max(stateW, ansi.StringWidth(states[i].icon+" "+states[i].label))
		clientW = max(clientW, min(14, ansi.StringWidth(clean(e.call.Client, nil))))
		deciderW = max(deciderW, len(listDecider(&e.call)))
	}
	room := inner - 2 - (idW + 1) - (toolW + 1) - stateW
	showClient := clientW > 0 && room >= clientW+1
	if showClient {
		room -= clientW + 1
	}
	showDecider := deciderW > 0 && room >= deciderW+1
	if room < 0 {
		toolW = max(4, toolW+room)
	}

	lines := make([]string, 0, rows)
	for i, e := range visible {
		c := &e.call
		s := states[i]
		marker := "  "
		if c.ID == m.selected {
			marker = iconSelected + " "
		}
		row := marker + fit(c.ID.String(), idW) + " " + fit(clean(c.Tool, nil), toolW)
		if showClient {
			row += " " + m.st.Muted.Render(fit(clean(c.Client, nil), clientW))
		}
		row += " " + s.style.Render(fit(s.icon+" "+s.label, stateW))
		if showDecider {
			row += " " + m.st.Muted.Render(fit(listDecider(c), deciderW))
		}
		if c.ID == m.selected {
			row = m.st.Selected.Render(ansi.Strip(fit(row, inner)))
		}
		lines = append(lines, row)
	}
	if len(shown) == 0 {
		if m.calls.filter != "" {
			lines = append(lines, m.st.Muted.Render(" no call matches the filter"))
		} else if m.ready {
			lines = append(lines, m.st.Muted.Render(" no calls yet: c shows how"), m.st.Muted.Render(" to connect a client"))
		}
	}
	title := m.st.Title.Render("queue")
	if f := m.calls.filter; f != "" {
		title += m.st.Muted.Render(fmt.Sprintf(" /%s %d of %d", clean(f, nil), len(shown), len(m.calls.order)))
	}
	if m.listTop > 0 {
		title += m.st.Muted.Render(" " + iconMoreAbove)
	}
	if end < len(shown) {
		title += m.st.Muted.Render(" " + iconMoreBelow)
	}
	return box(m.st.Border, title, w, h, 0, lines)
}
