package config

import (
	"fmt"
	"strings"
)

// addField records "key: value" written at off.
func (t *mdTool) addField(off int, item string) error {
	colon := strings.IndexByte(item, ':')
	key := ""
	if colon > 0 {
		key = strings.Trim(strings.TrimSpace(item[:colon]), "`")
	}
	if key == "" || strings.ContainsAny(key, " \t") {
		return fmt.Errorf("%s: tool %q: list items set fields and are written \"- key: value\"; got %q", t.src.position(off), t.name, item)
	}
	rest := item[colon+1:]
	raw := strings.TrimSpace(rest)
	valOff := off + colon + 1 + len(rest) - len(strings.TrimLeft(rest, " \t"))
	var v *node
	if raw != "" && strings.ContainsRune(`{["0123456789-tfn`, rune(raw[0])) {
		if n, err := parseJSONAt(t.src, valOff, valOff+len(raw)); err == nil {
			v = n
		} else if raw[0] == '{' || raw[0] == '[' {
			return fmt.Errorf("tool %q: field %s: %w", t.name, key, err)
		}
	}
	if v == nil {
		v = &node{kind: kindString, src: t.src, off: valOff, end: valOff + len(raw), text: raw}
	}
	if t.fields == nil {
		t.fields = &node{kind: kindObject, src: t.src, off: off}
	}
	return setPath(t.fields, strings.Split(key, "."), off, v, t.name)
}

// setPath stores v at a dotted path in an object node, creating objects on
// the way; setting the same leaf twice is an error.
func setPath(obj *node, path []string, off int, v *node, tool string) error {
	for i, k := range path {
		existing := obj.get(k)
		if i == len(path)-1 {
			if existing != nil && existing.kind == kindObject && v.kind == kindObject {
				for _, m := range v.members {
					if err := setPath(existing, []string{m.key}, m.off, m.val, tool); err != nil {
						return err
					}
				}
				return nil
			}
			if existing != nil {
				return fmt.Errorf("%s: tool %q: field %s is set twice", obj.src.position(off), tool, strings.Join(path, "."))
			}
			obj.add(k, off, v)
			return nil
		}
		if existing == nil {
			existing = &node{kind: kindObject, src: obj.src, off: off}
			obj.add(k, off, existing)
		} else if existing.kind != kindObject {
			return fmt.Errorf("%s: tool %q: field %s is not an object", obj.src.position(off), tool, strings.Join(path[:i+1], "."))
		}
		obj = existing
	}
	return nil
}
