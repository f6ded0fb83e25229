// Package ui is assent's console: a Bubble Tea program that shows the
// queue's calls as they arrive, run and end, and turns the operator's keys
// into queue actions. It reads the queue through one subscription and acts
// only through the queue's methods, from commands; it never runs a process,
// evaluates a rule or writes the journal itself.
//
// Everything an agent, a client or a child process wrote is escaped before
// it is drawn: argv elements are quoted with invisible characters as
// escapes, and output passes through the same escaper line by line.
package ui

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// statusTTL is how long a status message stays.
const statusTTL = 5 * time.Second

// Model is the console's root model. It is the only part that calls the
// queue, and does so from the commands it returns.
type Model struct {
	q     *queue.Queue
	o     Options
	st    Styles
	keys  keyMap
	help  help.Model
	calls *calls

	width, height int

	selected  queue.ID
	focus     paneID // the pane the paging keys move (see focused)
	listTop   int    // first row of the list shown
	detailTop int    // first line of the detail shown
	follow    bool   // the output pane follows the tail
	outBottom int64  // when not following, the line shown at the bottom

	dialog      dialog
	filtering   bool
	filterInput textinput.Model
	searching   bool // the search within output is being typed
	searchInput textinput.Model
	search      outputSearch

	notify notifier // how the terminal is told a call waits

	status     statusMsg
	statusSeq  int
	change     *Change // a config change waiting for the operator
	journalErr error
	journal    string
	graceUntil time.Time
	ticking    bool
	ready      bool // the snapshot arrived
	quitting   bool
	closeErr   error
	fatal      error

	// now is the clock; after schedules a message (tea.Tick). Tests
	// replace both.
	now   func() time.Time
	after func(time.Duration, tea.Msg) tea.Cmd
}

// New returns the console for o. It shows nothing of the queue until the
// feeder delivers the snapshot; Run starts both.
func New(o Options) Model {
	o = o.withDefaults()
	st := NewStyles(o.NoColor)
	h := help.New()
	h.Styles = st.Help
	h.ShortSeparator = "  "
	m := Model{
		q: o.Queue, o: o, st: st, keys: defaultKeyMap(), help: h,
		width:       80,
		height:      24,
		follow:      true,
		filterInput: promptInput(st, "/", "tool, client or state"),
		searchInput: promptInput(st, "search output: ", "text"),
		search:      outputSearch{line: -1},
		notify:      notifier{kind: notifyOSC9},
		now:         time.Now,
		after:       afterUntil(nil),
	}
	m.calls = newCalls(o.History, o.OutputLines)
	if o.Queue != nil {
		m.journal = o.Queue.JournalPath()
	}
	m.layout()
	return m
}

// Init implements tea.Model.
func (m Model) Init() tea.Cmd { return nil }

// Update implements tea.Model. It dispatches by concern: keys, queue
// events and sizes each have their own handler.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	cmd := m.dispatch(msg)
	m.markSeen()
	return cmd
}

func (m *Model) dispatch(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.handleResize(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.handlePaste(msg)
	case snapshotMsg:
		return m.handleSnapshot(msg)
	case eventMsg:
		return m.handleQueueEvent(msg)
	case changeMsg:
		return m.handleChange(msg)
	case narrowestMsg:
		return m.openAlways(msg)
	case rememberedMsg:
		return m.handleRemembered(msg)
	case statusMsg:
		return m.setStatus(msg)
	case statusExpiredMsg:
		if msg.seq == m.statusSeq {
			m.status = statusMsg{}
		}
	case refreshMsg:
		m.ticking = false
		return m.tick()
	case closedMsg:
		m.closeErr = msg.err
		return tea.Quit
	case fatalMsg:
		m.fatal = msg.err
	case tea.InterruptMsg:
		return m.requestQuit()
	}
	return nil
}

// setStatus shows a message in the status line for statusTTL.
func (m *Model) setStatus(s statusMsg) tea.Cmd {
	if s.text == "" && s.err == nil {
		return nil
	}
	m.status = s
	m.statusSeq++
	return m.after(statusTTL, statusExpiredMsg{m.statusSeq})
}

// afterUntil returns a scheduler whose timers give up when done closes,
// so that no timer of the console outlives Run. A nil done never closes.
func afterUntil(done <-chan struct{}) func(time.Duration, tea.Msg) tea.Cmd {
	return func(d time.Duration, msg tea.Msg) tea.Cmd {
		return func() tea.Msg {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return msg
			case <-done:
				return nil
			}
		}
	}
}

// tick keeps elapsed times moving while calls run.
func (m *Model) tick() tea.Cmd {
	if m.ticking {
		return nil
	}
	if _, running, _ := m.calls.counts(); running == 0 {
		return nil
	}
	m.ticking = true
	return m.after(time.Second, refreshMsg{})
}

// selectedEntry returns the selected call, or nil when the list is empty.
func (m *Model) selectedEntry() *entry {
	if e := m.calls.byID[m.selected]; e != nil && m.calls.index(m.selected) >= 0 {
		return e
	}
	return nil
}

// masked is text, part p of call c, with the call's secrets hidden.
func (m *Model) masked(c *queue.Call, p part, text string) string {
	return maskSecrets(c, p, text)
}

// promptInput is a one-line input drawn in the status line.
func promptInput(st Styles, prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.SetStyles(st.TextInput)
	in.KeyMap.Paste.SetEnabled(false) // the terminal's paste arrives as a message the console checks
	return in
}

// selectCall selects the call and resets the detail and output panes.
func (m *Model) selectCall(id queue.ID) {
	if id != m.selected {
		m.detailTop, m.follow, m.search = 0, true, outputSearch{line: -1}
	}
	m.selected = id
	m.scrollList()
}

// autoSelect selects a call that was not chosen by the operator. When it
// is pending, keys are ignored for the grace period, so a keystroke meant
// for what was selected before approves nothing.
func (m *Model) autoSelect(e *entry) {
	m.selectCall(e.call.ID)
	if e.call.Status == queue.Pending {
		m.startGrace()
	}
}

func (m *Model) startGrace() { m.graceUntil = m.now().Add(m.o.Grace) }

// inGrace reports whether keys are being ignored.
func (m *Model) inGrace() bool { return m.now().Before(m.graceUntil) }
