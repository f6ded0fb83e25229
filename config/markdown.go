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

// node turns the section into the same tool object a JSON file would give.
func (t *mdTool) node() (*node, error) {
	n := &node{kind: kindObject, src: t.src, off: t.off}
	n.add("name", t.off, &node{kind: kindString, src: t.src, off: t.off, text: t.name})
	if len(t.desc) > 0 {
		n.add("description", t.descOff, &node{kind: kindString, src: t.src, off: t.descOff, text: strings.Join(t.desc, " ")})
	}
	if c := t.command; c != nil {
		if c.info == "json" {
			v, err := parseJSONAt(t.src, c.off, c.end)
			if err != nil {
				return nil, fmt.Errorf("tool %q: command: %w", t.name, err)
			}
			n.add("command", c.off, v)
		} else {
			text := strings.ReplaceAll(string(t.src.data[c.off:c.end]), "\r\n", "\n")
			n.add("command", c.off, &node{kind: kindString, src: t.src, off: c.off, end: c.end, text: text})
		}
	}
	if t.fields != nil {
		for _, m := range t.fields.members {
			if n.get(m.key) != nil {
				return nil, fmt.Errorf("%s: tool %q: %s is already given by the section's %s", t.src.position(m.off), t.name, m.key, map[string]string{"name": "heading", "description": "first paragraph", "command": "code block"}[m.key])
			}
			n.add(m.key, m.off, m.val)
		}
	}
	return n, nil
}
