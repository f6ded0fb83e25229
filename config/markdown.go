package config

import (
	"bytes"
	"fmt"
	"strings"
)

// parseMarkdown reads the Markdown form of a tool file:
//
//	## list_files
//
//	List all files in a {directory}.
//
//	```
//	ls -la {directory}
//	```
//
//	- read_only: true
//	- params.directory.type: path
//
// Each "## name" section is a tool. Its first paragraph is the description
// and its first fenced code block the command (a block tagged json holds
// the command as a JSON array of words). Each "- key: value" list item sets
// another field; a dotted key reaches into objects, and a value that parses
// as JSON is taken as JSON, otherwise as a string. Text before the first
// section, other headings and later paragraphs are prose for people.
func parseMarkdown(src *source) (*fileDoc, error) {
	d := &fileDoc{src: src}
	var cur *mdTool
	finish := func() error {
		if cur == nil {
			return nil
		}
		n, err := cur.node()
		if err != nil {
			return err
		}
		d.tools = append(d.tools, n)
		return nil
	}
	lines := splitLines(src.data)
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		text := strings.TrimRight(string(ln.text), "\r")
		trimmed := strings.TrimLeft(text, " ")
		if fence := fenceOf(trimmed); fence != "" && len(text)-len(trimmed) <= 3 {
			info := strings.TrimSpace(trimmed[len(fence):])
			start := i + 1
			end := start
			for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(string(lines[end].text)), fence) {
				end++
			}
			if end == len(lines) {
				return nil, fmt.Errorf("%s: code block is never closed", src.position(ln.off))
			}
			if cur != nil && cur.command == nil {
				cur.command = &mdBlock{info: info, off: ln.off}
				if end > start {
					cur.command.off = lines[start].off
					cur.command.end = lines[end-1].off + len(bytes.TrimRight(lines[end-1].text, "\r"))
				} else {
					cur.command.end = cur.command.off
				}
			}
			if cur != nil {
				cur.endPara()
			}
			i = end
			continue
		}
		if strings.HasPrefix(text, "## ") || text == "##" {
			if err := finish(); err != nil {
				return nil, err
			}
			name := strings.Trim(strings.TrimSpace(strings.TrimPrefix(text, "##")), "`")
			cur = &mdTool{src: src, name: name, off: ln.off}
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.TrimSpace(text) == "" || strings.HasPrefix(trimmed, "#"):
			cur.endPara()
		case strings.HasPrefix(trimmed, "- ") || strings.HasPrefix(trimmed, "* "):
			cur.endPara()
			if err := cur.addField(ln.off+len(text)-len(trimmed)+2, trimmed[2:]); err != nil {
				return nil, err
			}
		default:
			cur.addPara(ln.off+len(text)-len(trimmed), strings.TrimSpace(text))
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return d, nil
}

type mdLine struct {
	off  int
	text []byte
}

func splitLines(data []byte) []mdLine {
	var out []mdLine
	off := 0
	for off <= len(data) {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			if off < len(data) {
				out = append(out, mdLine{off, data[off:]})
			}
			break
		}
		out = append(out, mdLine{off, data[off : off+i]})
		off += i + 1
	}
	return out
}

func fenceOf(s string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(s, f) {
			return f
		}
	}
	return ""
}

// mdTool collects one "## name" section.
type mdTool struct {
	src     *source
	name    string
	off     int
	desc    []string // lines of the first paragraph
	descOff int
	inPara  bool
	done    bool // the first paragraph has ended
	command *mdBlock
	fields  *node // object node of "- key: value" items
}

type mdBlock struct {
	info     string
	off, end int
}

func (t *mdTool) addPara(off int, line string) {
	if t.done && !t.inPara {
		return
	}
	if !t.inPara {
		t.inPara, t.descOff = true, off
	}
	if t.inPara && !t.done {
		t.desc = append(t.desc, line)
	}
}

func (t *mdTool) endPara() {
	if t.inPara {
		t.inPara, t.done = false, true
	}
}

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
		v = &node{kind: kindString, src: t.src, off: valOff, end: valOff + len(raw), str: raw}
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
				for j, vk := range v.keys {
					if err := setPath(existing, []string{vk}, v.kOffs[j], v.vals[j], tool); err != nil {
						return err
					}
				}
				return nil
			}
			if existing != nil {
				return fmt.Errorf("%s: tool %q: field %s is set twice", obj.src.position(off), tool, strings.Join(path, "."))
			}
			obj.keys, obj.kOffs, obj.vals = append(obj.keys, k), append(obj.kOffs, off), append(obj.vals, v)
			return nil
		}
		if existing == nil {
			existing = &node{kind: kindObject, src: obj.src, off: off}
			obj.keys, obj.kOffs, obj.vals = append(obj.keys, k), append(obj.kOffs, off), append(obj.vals, existing)
		} else if existing.kind != kindObject {
			return fmt.Errorf("%s: tool %q: field %s is not an object", obj.src.position(off), tool, strings.Join(path[:i+1], "."))
		}
		obj = existing
	}
	return nil
}

// node turns the section into the same tool object a JSON file would give.
func (t *mdTool) node() (*node, error) {
	n := &node{kind: kindObject, src: t.src, off: t.off}
	add := func(k string, off int, v *node) {
		n.keys, n.kOffs, n.vals = append(n.keys, k), append(n.kOffs, off), append(n.vals, v)
	}
	add("name", t.off, &node{kind: kindString, src: t.src, off: t.off, str: t.name})
	if len(t.desc) > 0 {
		add("description", t.descOff, &node{kind: kindString, src: t.src, off: t.descOff, str: strings.Join(t.desc, " ")})
	}
	if c := t.command; c != nil {
		if c.info == "json" {
			v, err := parseJSONAt(t.src, c.off, c.end)
			if err != nil {
				return nil, fmt.Errorf("tool %q: command: %w", t.name, err)
			}
			add("command", c.off, v)
		} else {
			text := strings.ReplaceAll(string(t.src.data[c.off:c.end]), "\r\n", "\n")
			add("command", c.off, &node{kind: kindString, src: t.src, off: c.off, end: c.end, str: text})
		}
	}
	if t.fields != nil {
		for i, k := range t.fields.keys {
			if n.get(k) != nil {
				return nil, fmt.Errorf("%s: tool %q: %s is already given by the section's %s", t.src.position(t.fields.kOffs[i]), t.name, k, map[string]string{"name": "heading", "description": "first paragraph", "command": "code block"}[k])
			}
			add(k, t.fields.kOffs[i], t.fields.vals[i])
		}
	}
	return n, nil
}
