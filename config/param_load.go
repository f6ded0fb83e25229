package config

import "slices"

// readParams builds the tool's parameters from its placeholders and the
// "params" declarations pn. Every placeholder is a parameter; a declaration
// that no template uses is an error, since it is most likely a typo that
// leaves the real placeholder undeclared and unconstrained. A placeholder
// written both ways is the command's error, reported at command.
func (t *Tool) readParams(pn, command *node, fail failFunc) error {
	uses := t.uses()
	if pn != nil {
		if pn.kind != kindObject {
			return fail(pn, "params", "want an object keyed by parameter name, got %s", pn.kind)
		}
		for _, m := range pn.members {
			if !slices.ContainsFunc(uses, func(u use) bool { return u.name == m.key }) {
				order := make([]string, len(uses))
				for i, u := range uses {
					order[i] = u.name
				}
				return fail(m.val, "params."+m.key, "declared, but no template uses {%s} (placeholders used: %v)", m.key, order)
			}
		}
	}
	if len(uses) == 0 {
		return nil // Params stays nil, as for every tool without placeholders
	}
	// A tool's parameters live as long as the tool, so they share one
	// allocation.
	params := make([]Param, len(uses))
	t.Params = make([]*Param, 0, len(uses))
	for i, u := range uses {
		name := u.name
		if u.list && u.scalar {
			return fail(command, "command", "{%s...} and {%s} both appear; a parameter is either a list or a single value", name, name)
		}
		p := &params[i]
		*p = Param{Name: name, Type: String, List: u.list, Required: true, Multiline: u.stdinOnly}
		if u.cwd {
			p.Type = Path
		}
		var declared *node // pn is an object whose keys are all different
		if pn != nil {
			declared = pn.get(name)
		}
		if declared != nil {
			if err := readParam(declared, p, func(at *node, f, format string, args ...any) error {
				return fail(at, "params."+name+f, format, args...)
			}); err != nil {
				return err
			}
		}
		if err := t.finishParam(p, declared, fail); err != nil {
			return err
		}
		t.Params = append(t.Params, p)
		t.params[name] = p
	}
	return nil
}

// readParam fills p from a declaration. fail's field is relative
// (".type", ".min", ...).
func readParam(n *node, p *Param, fail failFunc) error {
	if n.kind != kindObject {
		return fail(n, "", "want an object like {\"type\": \"string\"}, got %s", n.kind)
	}
	if err := checkKeys(n, "params."+p.Name, "type", "description", "default", "required", "enum",
		"pattern", "min", "max", "max_length", "under", "flags", "multiline", "secret"); err != nil {
		return err
	}
	var err error
	str := func(key string) (string, error) {
		v := n.get(key)
		if v == nil {
			return "", nil
		}
		s, err := readString(v, "")
		if err != nil {
			return "", fail(v, "."+key, "want a string, got %s", v.kind)
		}
		return s, nil
	}
	boolean := func(key string, into *bool) error {
		if v := n.get(key); v != nil {
			b, err := readBool(v, "")
			if err != nil {
				return fail(v, "."+key, "want true or false, got %s", v.kind)
			}
			*into = b
		}
		return nil
	}
	list := func(key string) ([]string, error) {
		v := n.get(key)
		if v == nil {
			return nil, nil
		}
		l, err := readStrings(v, "")
		if err != nil {
			return nil, fail(v, "."+key, "want an array of strings")
		}
		return l, nil
	}
	number := func(key string) (*float64, error) {
		v := n.get(key)
		if v == nil {
			return nil, nil
		}
		f, err := readFloat(v, "")
		if err != nil {
			return nil, fail(v, "."+key, "want a number, got %s", v.kind)
		}
		return &f, nil
	}
	if typ, err := str("type"); err != nil {
		return err
	} else if typ != "" {
		switch Type(typ) {
		case String, Integer, Number, Boolean, Enum, Path:
			p.Type = Type(typ)
		default:
			return fail(n.get("type"), ".type", "unknown type %q (want string, integer, number, boolean, enum or path)", typ)
		}
	}
	if p.Description, err = str("description"); err != nil {
		return err
	}
	if p.Pattern, err = str("pattern"); err != nil {
		return err
	}
	if p.Enum, err = list("enum"); err != nil {
		return err
	}
	if p.Under, err = list("under"); err != nil {
		return err
	}
	if p.Flags, err = list("flags"); err != nil {
		return err
	}
	if p.Min, err = number("min"); err != nil {
		return err
	}
	if p.Max, err = number("max"); err != nil {
		return err
	}
	if v := n.get("max_length"); v != nil {
		l, err := readInt(v, "")
		if err != nil || l <= 0 || l > DefaultMaxLengthMultiline {
			return fail(v, ".max_length", "want a whole number of characters from 1 to %d", DefaultMaxLengthMultiline)
		}
		p.MaxLength = int(l)
	}
	multiline := p.Multiline
	if v := n.get("multiline"); v != nil {
		if err := boolean("multiline", &multiline); err != nil {
			return err
		}
	}
	p.Multiline = multiline
	if err := boolean("secret", &p.Secret); err != nil {
		return err
	}
	if v := n.get("required"); v != nil {
		r, err := readBool(v, "")
		if err != nil {
			return fail(v, ".required", "want true or false, got %s", v.kind)
		}
		if r && n.get("default") != nil {
			return fail(v, ".required", "a parameter with a default is optional; remove \"required\" or the default")
		}
		if !r && n.get("default") == nil && !p.List {
			return fail(v, ".required", "an optional parameter needs a default (leaving out a word would shift the words after it); add \"default\"")
		}
		p.Required = r
	}
	if v := n.get("default"); v != nil {
		p.Default = v.value()
		p.Required = false
	}
	return checkParamShape(n, p, fail)
}
