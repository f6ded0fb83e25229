package ui

import (
	"fmt"
	"time"

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

// listState is how the list names a call's state: a running call's
// elapsed time is left to the detail.
func listState(st *Styles, c *queue.Call, now time.Time) state {
	s := stateOf(st, c, now)
	if c.Status == queue.Running {
		s.label = "running"
	}
	return s
}

// listView draws the queue list box, w×h cells.
func (m *Model) listView(w, h int) []string {
	inner, rows := w-2, h-2
	shown := m.calls.shown
	end := min(len(shown), m.listTop+rows)
	visible := shown[min(m.listTop, end):end]
	now := m.now()

	// Natural widths of each column; the client and who approved are
	// shown only when the tool and the state fit beside them. A replayed
	// call is always marked, the tool's name giving way if it must.
	idW, toolW, stateW, clientW, deciderW, replayW := 0, 4, 0, 0, 0, 0
	states := make([]state, len(visible))
	for i, e := range visible {
		states[i] = listState(&m.st, &e.call, now)
		idW = max(idW, len(e.call.ID.String()))
		toolW = max(toolW, min(24, width(clean(e.call.Tool))))
		stateW = max(stateW, width(states[i].icon+" "+states[i].label))
		clientW = max(clientW, min(14, width(clean(e.call.Client))))
		deciderW = max(deciderW, len(listDecider(&e.call)))
		if e.call.Origin == originReplay {
			replayW = len(originReplay) + 1
		}
	}
	room := inner - 2 - (idW + 1) - (toolW + 1) - stateW - replayW
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
		row := marker + fit(c.ID.String(), idW) + " "
		if replayW > 0 {
			tag := ""
			if c.Origin == originReplay {
				tag = originReplay
			}
			row += m.st.Warning.Render(fit(tag, replayW-1)) + " "
		}
		row += fit(clean(c.Tool), toolW)
		if showClient {
			row += " " + m.st.Muted.Render(fit(clean(c.Client), clientW))
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
		title += m.st.Muted.Render(fmt.Sprintf(" /%s %d of %d", clean(f), len(shown), len(m.calls.order)))
	}
	if m.listTop > 0 {
		title += m.st.Muted.Render(" " + iconMoreAbove)
	}
	if end < len(shown) {
		title += m.st.Muted.Render(" " + iconMoreBelow)
	}
	return pane{title: title, focused: m.focused() == paneList}.draw(m.paneBorder(paneList), w, h, lines)
}
