package policy

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// RuleError is a problem with one rule, located for the operator: the file,
// the rule's position and id, and the field.
type RuleError struct {
	// Source is the file the rule is in.
	Source string
	// Index is the rule's position in the file's rules array, or -1 when the
	// problem is with the file rather than one rule.
	Index int
	// ID is the rule's id, or "" when it has none (or it could not be read).
	ID string
	// Field is the dotted path of the field at fault (args.path,
	// examples.match[0]), or "" when the problem is the rule as a whole.
	Field string
	// Err is what is wrong.
	Err error
}

// Error says where the problem is, then what it is.
func (e *RuleError) Error() string {
	where := e.Source
	if e.Index >= 0 {
		where += fmt.Sprintf(": rules[%d]", e.Index)
	}
	if e.ID != "" {
		where += fmt.Sprintf(" (id %q)", e.ID)
	}
	if e.Field != "" {
		where += fmt.Sprintf(": field %q", e.Field)
	}
	return where + ": " + e.Err.Error()
}

// Unwrap returns what is wrong, without the location.
func (e *RuleError) Unwrap() error { return e.Err }

// ruleKeys lists the fields a rule has, for the unknown-field error.
const ruleKeys = "id, decision, " + matcherKeys + ", reason, saved, examples, except"

// ParseRules reads a JSON array of rules: the "rules" array of a tool file,
// or of a policy file. source names the file in errors and in each rule's
// label. Every rule is checked (unknown fields, types, globs, regexes,
// examples) and all problems are reported together, one RuleError each; a
// file with any problem loads no rules.
func ParseRules(source string, data []byte) ([]Rule, error) {
	items, err := decodeArray(data)
	if err != nil {
		return nil, &RuleError{Source: source, Index: -1, Err: fmt.Errorf("rules: %w", err)}
	}
	rules := make([]Rule, 0, len(items))
	var errs []error
	ids := map[string]int{}
	for i, raw := range items {
		r, err := parseRule(raw)
		r.source, r.index = source, i
		if err == nil && strings.HasPrefix(r.id, builtinPrefix) {
			err = &fieldError{field: "id", err: fmt.Errorf("ids starting with %q are kept for assent's built-in rules", builtinPrefix)}
		}
		if err == nil && r.id != "" {
			if prev, dup := ids[r.id]; dup {
				err = &fieldError{field: "id", err: fmt.Errorf("id already used by rules[%d]", prev)}
			}
			ids[r.id] = i
		}
		if err != nil {
			errs = append(errs, locate(source, i, raw, err))
			continue
		}
		rules = append(rules, r)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return rules, nil
}

// locate turns an error from parseRule into a RuleError.
func locate(source string, index int, raw []byte, err error) *RuleError {
	re := &RuleError{Source: source, Index: index, ID: peekID(raw), Err: err}
	var fe *fieldError
	if errors.As(err, &fe) {
		re.Field, re.Err = fe.field, fe.err
	}
	return re
}

// peekID reads a rule's id, if it has a readable one, so an error about any
// field of the rule can say which rule it is.
func peekID(raw []byte) string {
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return ""
	}
	id, _ := probe.ID.(string)
	return id
}

// parseRule reads and checks one rule object. The caller sets its place.
func parseRule(raw []byte) (Rule, error) {
	r := Rule{index: -1}
	members, err := decodeObject(raw)
	if err != nil {
		return r, err
	}
	var examplesRaw []byte
	for _, m := range members {
		switch m.key {
		case "id":
			r.id, err = decodeString(m.raw)
			if err == nil && r.id == "" {
				err = errors.New("empty id (leave it out, or name the rule)")
			}
		case "decision":
			r.decision, err = parseAction(m.raw)
		case "reason":
			r.reason, err = decodeString(m.raw)
		case "saved":
			var text string
			if text, err = decodeString(m.raw); err == nil {
				if r.saved, err = time.Parse(time.RFC3339, text); err != nil {
					err = fmt.Errorf("%q is not a time like 2026-12-01T09:30:00Z", text)
				}
			}
		case "examples":
			examplesRaw = m.raw // run once every matcher is known
		case "except":
			r.except, err = parseExcept(m.raw)
		default:
			var known bool
			known, err = r.match.parseField(m.key, m.raw)
			if !known {
				err = errors.New("unknown field (a rule has " + ruleKeys + ")")
			}
		}
		if err != nil {
			return r, inField(m.key, err)
		}
	}
	if r.decision == "" {
		return r, &fieldError{field: "decision", err: errors.New(`missing (write "allow", "ask" or "deny")`)}
	}
	if examplesRaw != nil {
		if r.examples, err = parseExamples(examplesRaw); err != nil {
			return r, inField("examples", err)
		}
		if err := r.checkExamples(); err != nil {
			return r, err
		}
	}
	return r, nil
}

// parseAction reads "allow", "ask" or "deny".
func parseAction(raw []byte) (Action, error) {
	s, err := decodeString(raw)
	if err != nil {
		return "", err
	}
	switch a := Action(s); a {
	case Allow, Ask, Deny:
		return a, nil
	}
	return "", fmt.Errorf(`%q is not a decision (write "allow", "ask" or "deny")`, s)
}

// parseExcept reads one except block or an array of them. An empty block
// would match every call and so silently cancel its rule; it is refused.
func parseExcept(raw []byte) ([]matchSet, error) {
	blocks := []json.RawMessage{raw}
	single := jsonKind(raw) != "an array"
	if !single {
		var err error
		if blocks, err = decodeArray(raw); err != nil {
			return nil, err
		}
		if len(blocks) == 0 {
			return nil, errors.New("empty except list (leave except out)")
		}
	}
	out := make([]matchSet, 0, len(blocks))
	for i, b := range blocks {
		m, err := parseMatchSet(b)
		if err != nil && !single {
			err = inField(fmt.Sprintf("[%d]", i), err)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// parseMatchSet reads an object holding matcher fields only.
func parseMatchSet(raw []byte) (matchSet, error) {
	var m matchSet
	members, err := decodeObject(raw)
	if err != nil {
		return m, err
	}
	for _, mem := range members {
		known, err := m.parseField(mem.key, mem.raw)
		if !known {
			err = errors.New("unknown field (an except block has " + matcherKeys + ")")
		}
		if err != nil {
			return m, inField(mem.key, err)
		}
	}
	if m.isEmpty() {
		return m, errors.New("except block matches every call, which would cancel the rule")
	}
	return m, nil
}
