package policy

import (
	"errors"
	"fmt"
)

// A policy file (`--policy FILE`) holds rules apart from any tool file, in
// either of two forms: a bare JSON array of rules, or {"rules": [...]}, the
// form the remembered-rules file always takes and the one that leaves room
// to grow. Nothing else may be in it.

// ParseFile reads a policy file: a JSON array of rules, or an object whose
// only key is "rules". source names the file in errors.
func ParseFile(source string, data []byte) ([]Rule, error) {
	if jsonKind(data) == "an array" {
		return ParseRules(source, data)
	}
	return parseRulesObject(source, data)
}

// parseRulesObject reads {"rules": [...]}, the form remembered-rules files
// always take.
func parseRulesObject(source string, data []byte) ([]Rule, error) {
	members, err := decodeObject(data)
	if err != nil {
		return nil, &RuleError{Source: source, Index: -1, Err: fmt.Errorf(`want an array of rules or {"rules": [...]}: %w`, err)}
	}
	var rules []Rule
	for _, m := range members {
		if m.key != "rules" {
			return nil, &RuleError{Source: source, Index: -1, Field: m.key, Err: errors.New(`unknown field (a policy file has only "rules")`)}
		}
		if rules, err = ParseRules(source, m.raw); err != nil {
			return nil, err
		}
	}
	return rules, nil
}
