// Package policy decides, from rules written as data, whether a tool call may
// run without a human (allow), needs one (ask), or may never run (deny). It
// sees a call as a plain Input and imports nothing from the rest of assent, so
// the console, headless mode, replay and `assent explain` all get the same
// answer for the same call.
//
// Precedence is fixed: any matching deny rule wins over any matching ask rule,
// which wins over any matching allow rule; a call no rule matches is asked
// about. Among rules of the winning decision the first one in load order is
// reported. A tool declared shell is never auto-approved. Remembered
// approvals are allow rules and take part in the same precedence, so a deny
// rule still beats them.
package policy

// Input is a call as policy sees it: everything a rule can match on, already
// expanded and validated by the caller.
type Input struct {
	// Tool is the tool name.
	Tool string
	// ReadOnly is true when the tool was declared read_only.
	ReadOnly bool
	// Shell is true when the tool was declared shell: true. Such a tool runs
	// a program that can run anything, so it is never auto-approved.
	Shell bool
	// Args holds each parameter's value(s) as text: a scalar has exactly one
	// element, a list parameter one per item. An absent parameter has no key.
	Args map[string][]string
	// Path is the absolute program path, resolved when the tool file loaded.
	Path string
	// Argv is the expanded argument vector; Argv[0] is the program as the
	// template wrote it.
	Argv []string
	// Client is the MCP client's name, or "" when it is unknown.
	Client string
	// Paths are the values of every path-typed parameter (list items
	// included), resolved, for rules that match any path argument.
	Paths []string
}

// Action is what a decision lets happen to a call.
type Action string

const (
	// Allow runs the call without asking anyone.
	Allow Action = "allow"
	// Ask holds the call until an operator approves or denies it.
	Ask Action = "ask"
	// Deny refuses the call; the agent sees the reason.
	Deny Action = "deny"
)

// Keep says how long a remembered rule is kept.
type Keep string

const (
	// Session rules were approved with "allow for this session" and live in
	// memory only.
	Session Keep = "session"
	// Always rules were approved with "always allow" and live in the
	// remembered-rules file.
	Always Keep = "always"
)

// Decision is the policy's answer for one call, with enough about the rule
// behind it for the console, the journal and `assent explain` to say why.
type Decision struct {
	// Action is allow, ask or deny.
	Action Action
	// Rule names the rule behind the decision for people: its id, else
	// "<source>#<index>". It is "" when no rule matched. When an allow rule
	// matched a shell tool, the action is ask, Rule names that allow rule,
	// and Reason says the tool is never auto-approved.
	Rule string
	// Reason says why, in words an operator or an agent can act on.
	Reason string
	// Source is the file the rule came from ("session" for a session rule),
	// or "" when no rule matched.
	Source string
	// Index is the rule's position in Source, or -1 when no rule matched.
	Index int
	// Remembered says which kind of remembered rule decided, or "" when the
	// rule came from a tool or policy file (or none matched).
	Remembered Keep
}

// noMatchReason is the reason given when no rule matches a call.
const noMatchReason = "no rule matched"

// noMatch is the decision for a call no rule matches: an operator decides.
func noMatch() Decision {
	return Decision{Action: Ask, Reason: noMatchReason, Index: -1}
}

// Headless turns the decision into the one a deployment without an operator
// must follow: ask becomes deny, because nobody is there to answer, and the
// reason says so. Allow and deny are returned unchanged.
func (d Decision) Headless() Decision {
	if d.Action != Ask {
		return d
	}
	d.Action = Deny
	d.Reason = "no approver is attached (headless): " + d.Reason
	return d
}
