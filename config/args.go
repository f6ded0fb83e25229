package config

import (
	"fmt"
	"strconv"
	"strings"
)

// ArgsFromStrings turns key=value words, as typed on a command line
// (`assent explain grep_search pattern=TODO path=src`), into the arguments
// a call would carry: a value is typed as its parameter expects (numbers
// and booleans parsed, text kept as written), and a repeated key, or any
// key of a list parameter, gives a list. A key the tool does not have is
// kept as text, so the call's own check names it.
func (t *Tool) ArgsFromStrings(kvs []string) (map[string]any, error) {
	args := map[string]any{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("argument %q is not key=value", kv)
		}
		val := any(v)
		if p := t.Param(k); p != nil {
			switch p.Type {
			case Integer, Number:
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return nil, fmt.Errorf("argument %s: %q is not a number", k, v)
				}
				val = f
			case Boolean:
				b, err := strconv.ParseBool(v)
				if err != nil {
					return nil, fmt.Errorf("argument %s: %q is not true or false", k, v)
				}
				val = b
			}
			if p.List {
				prev, _ := args[k].([]any)
				args[k] = append(prev, val)
				continue
			}
		}
		if prev, dup := args[k]; dup {
			list, ok := prev.([]any)
			if !ok {
				list = []any{prev}
			}
			args[k] = append(list, val)
			continue
		}
		args[k] = val
	}
	return args, nil
}
