package ui

import (
	"fmt"

	"github.com/assent-sh/assent/queue"
)

// detailTitle names the call in the detail box's top edge.
func (m *Model) detailTitle(c *queue.Call) string {
	t := m.st.Title.Render(c.ID.String()+" "+clean(c.Tool)) + m.st.Muted.Render(" · ")
	if c.Client != "" {
		t += clean(c.Client) + m.st.Muted.Render(" · ")
	}
	if c.Origin == originReplay {
		t += m.st.Warning.Render(originReplay) + m.st.Muted.Render(" · ")
	}
	s := stateOf(&m.st, c, m.now())
	if c.Ending == queue.Exited && c.Result != nil {
		return t + s.style.Render(fmt.Sprintf("exit %d", c.Result.ExitCode))
	}
	return t + s.style.Render(s.label)
}

// detailWidth is the room for text in the detail pane.
func (m *Model) detailWidth() int { return pane{pad: 1}.textWidth(m.rightWidth()) }

// detailOf returns the call's detail at the pane's width, built once per
// change of the call or of the width.
func (m *Model) detailOf(e *entry) *detail {
	w := m.detailWidth()
	if e.detail == nil || e.detail.width != w {
		e.detail = m.buildDetail(&e.call, w)
	}
	return e.detail
}

// split divides the right column between the detail and the output of
// the call: a call that cannot have output yet gets all of it, and the
// detail takes what it needs up to a little more than half.
func (m *Model) split(e *entry) (detailH, outH int) {
	h := m.bodyHeight()
	if !hasOutputPane(e) {
		return h, 0
	}
	need := len(m.detailOf(e).lines) + 2
	detailH = max(5, min(need, h*11/20))
	if h-detailH < 4 {
		detailH = max(3, h-4)
	}
	return detailH, h - detailH
}

// hasOutputPane reports whether the call is drawn with an output pane.
func hasOutputPane(e *entry) bool {
	return e != nil && e.call.Status != queue.Pending && e.call.Status != queue.Received &&
		(!e.call.Status.Ended() || !e.call.Started.IsZero())
}

// detailWindow is the part of the selected call's detail on screen: its
// first line and how many lines the pane shows.
func (m *Model) detailWindow(e *entry) (d *detail, top, rows int) {
	detailH, _ := m.split(e)
	d = m.detailOf(e)
	rows = max(0, detailH-2)
	top = max(0, min(m.detailTop, len(d.lines)-rows))
	return d, top, rows
}

// maxDetailTop is the last line the detail can scroll to.
func (m *Model) maxDetailTop() int {
	e := m.selectedEntry()
	if e == nil {
		return 0
	}
	d, _, rows := m.detailWindow(e)
	return max(0, len(d.lines)-rows)
}

// rightView draws the detail and the output of the selected call. What
// lies above and below the detail's window is marked in its edges: how
// many lines, and below, which part of the call they hold.
func (m *Model) rightView(w, h int) []string {
	e := m.selectedEntry()
	if e == nil {
		return box(m.st.Border, m.st.Title.Render("call"), w, h, 1, nil)
	}
	detailH, outH := m.split(e)
	d, top, rows := m.detailWindow(e)
	p := pane{title: m.detailTitle(&e.call), pad: 1, focused: m.focused() == paneDetail}
	if top > 0 {
		p.title = m.st.Muted.Render(fmt.Sprintf("%s %d above · ", iconMoreAbove, top)) + p.title
	}
	if below := len(d.lines) - top - rows; below > 0 {
		what := d.summary[d.lines[top+rows].sec]
		if what != "" {
			what += " · "
		}
		p.footer = m.st.Warning.Render(fmt.Sprintf("%s %s%d below", iconMoreBelow, what, below))
	}
	lines := make([]string, 0, rows)
	for _, l := range d.lines[top:min(len(d.lines), top+rows)] {
		lines = append(lines, l.text)
	}
	out := p.draw(m.paneBorder(paneDetail), w, detailH, lines)
	if outH > 0 {
		out = append(out, m.outputView(e, w, outH)...)
	}
	return out
}
