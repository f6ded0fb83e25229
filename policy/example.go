package policy

import (
	"errors"
	"fmt"
	"strings"
)

// example is one call a rule's author says the rule must (want) or must not
// (!want) match. Examples are run when the rule loads; a rule whose examples
// disagree with it does not load.
type example struct {
	text string // the example as written, compacted
	in   Input
	want bool
	pos  int // position in its list, for error messages
}

// ExampleResult is the outcome of running one of a rule's examples.
type ExampleResult struct {
	// Rule is the label of the rule the example belongs to.
	Rule string
	// Example is the example as written in the rule.
	Example string
	// Input is the call the example describes.
	Input Input
	// Want is true for a "match" example, false for a "not_match" one.
	Want bool
	// Matched reports whether the rule matched the example.
	Matched bool
}

// OK reports whether the rule did what the example says it should.
func (e ExampleResult) OK() bool { return e.Matched == e.Want }

// CheckExamples runs the rule's examples against the rule alone (not against
// the rest of the policy), in the order written.
func (r Rule) CheckExamples() []ExampleResult {
	out := make([]ExampleResult, 0, len(r.examples))
	for _, e := range r.examples {
		c := newCall(&e.in)
		out = append(out, ExampleResult{
			Rule: r.Label(), Example: e.text, Input: e.in, Want: e.want, Matched: r.matches(&c),
		})
	}
	return out
}

// checkExamples returns an error about the first example the rule disagrees
// with, naming the example so the operator sees what was expected.
func (r *Rule) checkExamples() error {
	for i, res := range r.CheckExamples() {
		if res.OK() {
			continue
		}
		field := fmt.Sprintf("examples.not_match[%d]", r.examples[i].pos)
		err := fmt.Errorf("example %s matches the rule, but is listed under not_match", res.Example)
		if res.Want {
			field = fmt.Sprintf("examples.match[%d]", r.examples[i].pos)
			err = fmt.Errorf("example %s does not match the rule", res.Example)
		}
		return &fieldError{field: field, err: err}
	}
	return nil
}

// parseExamples reads {"match": [...], "not_match": [...]}.
func parseExamples(raw []byte) ([]example, error) {
	members, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	var out []example
	for _, m := range members {
		want := m.key == "match"
		if !want && m.key != "not_match" {
			return nil, &fieldError{field: m.key, err: errors.New(`unknown field (examples has "match" and "not_match")`)}
		}
		items, err := decodeArray(m.raw)
		if err != nil {
			return nil, inField(m.key, err)
		}
		for i, it := range items {
			in, err := parseExampleInput(it)
			if err != nil {
				return nil, inField(fmt.Sprintf("%s[%d]", m.key, i), err)
			}
			out = append(out, example{text: compactJSON(it), in: in, want: want, pos: i})
		}
	}
	return out, nil
}

// parseExampleInput reads one example: an object
// {tool, args: {k: v or [v...]}, paths: [...], argv: [...], client,
// read_only, shell, path},
// or the shorthand string "TOOL key=value ...", the same words `assent
// explain` takes (split on spaces; a repeated key makes a list; use the
// object form for values with spaces, argv or the flags).
func parseExampleInput(raw []byte) (Input, error) {
	if jsonKind(raw) == "a string" {
		s, err := decodeString(raw)
		if err != nil {
			return Input{}, err
		}
		return parseShorthand(s)
	}
	members, err := decodeObject(raw)
	if err != nil {
		return Input{}, err
	}
	var in Input
	for _, m := range members {
		switch m.key {
		case "tool":
			in.Tool, err = decodeString(m.raw)
		case "client":
			in.Client, err = decodeString(m.raw)
		case "path":
			in.Path, err = decodeString(m.raw)
		case "read_only":
			in.ReadOnly, err = decodeBool(m.raw)
		case "shell":
			in.Shell, err = decodeBool(m.raw)
		case "argv":
			in.Argv, err = decodeStrings(m.raw)
		case "args":
			in.Args, err = parseExampleArgs(m.raw)
		case "paths":
			in.Paths, err = decodeStrings(m.raw)
		default:
			err = errors.New("unknown field (an example has tool, args, paths, argv, client, read_only, shell, path)")
		}
		if err != nil {
			return Input{}, inField(m.key, err)
		}
	}
	return in, nil
}

// parseExampleArgs reads {param: "value" or ["item", ...]}.
func parseExampleArgs(raw []byte) (map[string][]string, error) {
	members, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	args := make(map[string][]string, len(members))
	for _, m := range members {
		vals, err := decodeStrings(m.raw)
		if err != nil {
			return nil, inField(m.key, fmt.Errorf("%w (argument values are text: quote numbers and booleans)", err))
		}
		args[m.key] = vals
	}
	return args, nil
}

// parseShorthand reads "TOOL key=value key=value".
func parseShorthand(s string) (Input, error) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return Input{}, errors.New(`empty example (write "TOOL key=value ..." or an object)`)
	}
	in := Input{Tool: words[0], Args: map[string][]string{}}
	for _, w := range words[1:] {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return Input{}, fmt.Errorf("example %q: %q is not key=value", s, w)
		}
		in.Args[k] = append(in.Args[k], v)
	}
	return in, nil
}
