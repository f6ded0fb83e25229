package policy

// The remembered-rules file is {"rules": [...]} in the same syntax as any
// rule, indented, so an operator can review and edit it by hand. It only
// ever holds allow rules. Reading and writing the file itself is the
// loader's (it checks the file's mode, and writes it atomically); this
// package turns its bytes into rules and back.

// ParseRemembered reads the contents of a remembered-rules file. source
// names it in errors and in the rules' labels. Every rule must allow.
func ParseRemembered(source string, data []byte) ([]Rule, error) {
	rules, err := parseRulesObject(source, data)
	if err != nil {
		return nil, err
	}
	if err := checkAlways(source, rules); err != nil {
		return nil, err
	}
	for i := range rules {
		rules[i].memory = Always
	}
	return rules, nil
}

// MarshalRemembered writes rules in the remembered-rules file's form,
// indented and ending in a newline.
func MarshalRemembered(rules []Rule) ([]byte, error) {
	data, err := marshalText(struct {
		Rules []Rule `json:"rules"`
	}{rules}, "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
