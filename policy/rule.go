package policy

import (
	"encoding/json"
	"fmt"
	"time"
)

// Rule is one loaded rule: a decision, the matchers a call must satisfy, the
// exceptions carved out of them, and where it came from. Rules are made only
// by parsing (ParseRules, ParseFile, ReadRemembered) or by Narrowest and
// WidenArg, so every Rule value has been checked, examples included. A Rule is
// immutable and safe to share.
type Rule struct {
	id       string
	decision Action
	match    matchSet
	except   []matchSet
	reason   string
	examples []example
	source   string
	index    int
	memory   Keep
	saved    time.Time // when the operator saved it; zero for other rules
}

// ID is the rule's id, or "" when it has none.
func (r Rule) ID() string { return r.id }

// Decision is what the rule decides for a call it matches.
func (r Rule) Decision() Action { return r.decision }

// Reason is the rule's reason as written, or "" when it has none.
func (r Rule) Reason() string { return r.reason }

// Source is the file the rule was read from, "session" for a session rule,
// or "" for a rule not loaded from anywhere yet (from Narrowest).
func (r Rule) Source() string { return r.source }

// Index is the rule's position in its source, or -1 when it has none.
func (r Rule) Index() int { return r.index }

// Saved is when the operator saved the rule with "always allow", or the
// zero time for a rule that was not saved so.
func (r Rule) Saved() time.Time { return r.saved }

// Kept says which kind of remembered rule this is, or "" for a rule from a
// tool or policy file.
func (r Rule) Kept() Keep { return r.memory }

// Label names the rule for people: its id, else "<source>#<index>", else ""
// for a rule that has not been placed anywhere yet.
func (r Rule) Label() string {
	switch {
	case r.id != "":
		return r.id
	case r.source != "" || r.index >= 0:
		return fmt.Sprintf("%s#%d", r.source, r.index)
	}
	return ""
}

// matches reports whether the rule applies to the call: its matchers match
// and none of its except blocks does.
//
// Multi-valued inputs are read conservatively for the rule's decision. An
// allow rule must never cover a value it did not see, so its list-argument
// patterns need every item to match; a deny or ask rule must catch one bad
// item, so one matching item is enough. An except block works against its
// rule, so it reads the other way round: an exception to a deny applies only
// when every item is exempt.
func (r *Rule) matches(c *call) bool {
	every := r.decision == Allow
	if !r.match.matches(c, every) {
		return false
	}
	for i := range r.except {
		if r.except[i].matches(c, !every) {
			return false
		}
	}
	return true
}

// ruleJSON is the written form of a rule, in the order a person reads it.
type ruleJSON struct {
	ID       string `json:"id,omitempty"`
	Decision Action `json:"decision"`
	matchJSON
	Reason   string        `json:"reason,omitempty"`
	Saved    string        `json:"saved,omitempty"`
	Examples *examplesJSON `json:"examples,omitempty"`
	Except   any           `json:"except,omitempty"`
}

// matchJSON is the written form of a matchSet.
type matchJSON struct {
	Tool     *string            `json:"tool,omitempty"`
	Args     map[string]pattern `json:"args,omitempty"`
	OnlyArgs bool               `json:"only_args,omitempty"`
	Paths    any                `json:"paths,omitempty"`
	Argv     []pattern          `json:"argv,omitempty"`
	Client   *string            `json:"client,omitempty"`
	ReadOnly *bool              `json:"read_only,omitempty"`
}

// examplesJSON is the written form of a rule's examples, kept as written.
type examplesJSON struct {
	Match    []json.RawMessage `json:"match,omitempty"`
	NotMatch []json.RawMessage `json:"not_match,omitempty"`
}

func (m *matchSet) toJSON() matchJSON {
	j := matchJSON{OnlyArgs: m.onlyArgs, Paths: pathsJSON(m.paths), Argv: m.argv, ReadOnly: m.readOnly}
	if m.tool != nil {
		j.Tool = &m.tool.text
	}
	if m.client != nil {
		j.Client = &m.client.text
	}
	if len(m.args) > 0 {
		j.Args = make(map[string]pattern, len(m.args))
		for _, a := range m.args {
			j.Args[a.name] = a.p
		}
	}
	return j
}

// toJSON builds the written form; withNotes false leaves out what does not
// change which calls the rule matches (id, reason, examples).
func (r *Rule) toJSON(withNotes bool) ruleJSON {
	j := ruleJSON{Decision: r.decision, matchJSON: r.match.toJSON()}
	switch len(r.except) {
	case 0:
	case 1:
		j.Except = r.except[0].toJSON()
	default:
		ex := make([]matchJSON, len(r.except))
		for i := range r.except {
			ex[i] = r.except[i].toJSON()
		}
		j.Except = ex
	}
	if !withNotes {
		return j
	}
	j.ID, j.Reason = r.id, r.reason
	if !r.saved.IsZero() {
		j.Saved = r.saved.UTC().Format(time.RFC3339)
	}
	if len(r.examples) > 0 {
		j.Examples = &examplesJSON{}
		for _, e := range r.examples {
			if e.want {
				j.Examples.Match = append(j.Examples.Match, json.RawMessage(e.text))
			} else {
				j.Examples.NotMatch = append(j.Examples.NotMatch, json.RawMessage(e.text))
			}
		}
	}
	return j
}

// MarshalJSON writes the rule in the syntax it is read in, so a saved rule
// reads back as the same rule and can be reviewed by hand.
func (r Rule) MarshalJSON() ([]byte, error) { return marshalText(r.toJSON(true), "") }

// String is the rule as one line of JSON, as the console shows a rule it is
// about to save.
func (r Rule) String() string {
	b, err := r.MarshalJSON()
	if err != nil {
		return fmt.Sprintf("unprintable rule %s: %v", r.Label(), err)
	}
	return string(b)
}

// sameMatches is the de-duplication key: two rules with the same key decide
// the same calls the same way, whatever their ids, reasons or examples say.
func (r *Rule) sameMatches() string {
	b, err := marshalText(r.toJSON(false), "")
	if err != nil {
		return "unprintable:" + r.Label()
	}
	return string(b)
}
