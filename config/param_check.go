package config

// checkParamShape refuses fields that do not fit the parameter's type.
func checkParamShape(n *node, p *Param, fail failFunc) error {
	only := func(key string, set bool, ok bool, types string) error {
		if set && !ok {
			return fail(n.get(key), "."+key, "only applies to %s parameters, not %s", types, p.Type)
		}
		return nil
	}
	isStr := p.Type == String
	checks := []error{
		only("enum", p.Enum != nil, isStr || p.Type == Enum, "string and enum"),
		only("pattern", p.Pattern != "", isStr || p.Type == Path, "string and path"),
		only("min", p.Min != nil, p.Type == Integer || p.Type == Number, "integer and number"),
		only("max", p.Max != nil, p.Type == Integer || p.Type == Number, "integer and number"),
		only("max_length", p.MaxLength > 0, isStr || p.Type == Path, "string and path"),
		only("under", p.Under != nil, p.Type == Path, "path"),
		only("flags", p.Flags != nil, isStr, "string"),
		only("multiline", n.get("multiline") != nil && p.Multiline, isStr, "string"),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if p.Type == Enum && len(p.Enum) == 0 {
		return fail(n, ".enum", "an enum parameter needs a non-empty \"enum\" list")
	}
	if p.Type != String {
		p.Multiline = false
	}
	if p.Min != nil && p.Max != nil && *p.Min > *p.Max {
		return fail(n.get("min"), ".min", "min %v is greater than max %v", *p.Min, *p.Max)
	}
	for i, e := range p.Enum {
		if pr := textProblem(e, false); pr != "" {
			return fail(n.get("enum").items[i], ".enum", "contains %s", pr)
		}
	}
	for i, f := range p.Flags {
		if len(f) < 2 || f[0] != '-' || textProblem(f, false) != "" {
			return fail(n.get("flags").items[i], ".flags", "%q is not an option token like \"-i\" or \"--ignore-case\"", f)
		}
	}
	return nil
}

// finishParam compiles what a declaration needs at call time and checks the
// default like any value, so a bad default fails at load, not on the first
// call that omits it.
func (t *Tool) finishParam(p *Param, decl *node, fail failFunc) error {
	at := decl
	if at == nil {
		at = &node{src: &source{name: t.Where}, off: -1}
	}
	field := "params." + p.Name
	if p.Pattern != "" {
		re, err := t.memo.pattern(p.Pattern)
		if err != nil {
			return fail(at.get("pattern"), field+".pattern", "not a valid RE2 expression: %v", err)
		}
		p.pattern = re
	}
	if p.Min != nil {
		p.minSet = true
	}
	if p.Type == Path {
		under := p.Under
		if under == nil {
			under = []string{"."}
		}
		roots, err := t.memo.resolveRoots(t.workDir, under)
		if err != nil {
			return fail(at, field+".under", "%v", err)
		}
		p.roots = roots
	}
	if p.Default != nil {
		_, verr := p.values(p.Default, t.workDir, t.memo)
		if verr != nil {
			return fail(at.get("default"), field+".default", "%s", verr.msg)
		}
	} else if !p.Required && p.List {
		p.Default = []any{}
	}
	return nil
}

// value turns a node back into the plain Go value encoding/json would give.
func (n *node) value() any {
	switch n.kind {
	case kindBool:
		return n.bool
	case kindNumber:
		return n.number()
	case kindString:
		return n.text
	case kindArray:
		out := make([]any, len(n.items))
		for i, it := range n.items {
			out[i] = it.value()
		}
		return out
	case kindObject:
		out := make(map[string]any, len(n.members))
		for _, m := range n.members {
			out[m.key] = m.val.value()
		}
		return out
	}
	return nil
}
