package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/queue"
)

// buildDetail describes the call in full, wrapped to w cells: how it was
// decided and ended, the program and every argv element, where and how it
// runs, its environment, all of its stdin, and the agent's original of an
// edit. Nothing is cut; the pane scrolls instead.
func (m *Model) buildDetail(c *queue.Call, w int) *detail {
	st := &m.st
	b := &detailBuilder{st: st, c: c, w: w, d: &detail{width: w},
		mask: func(p part, text string) string { return m.masked(c, p, text) }}
	// How the call was decided and ended comes first, where a short pane
	// still shows it; what runs follows.
	if c.Status == queue.Pending {
		b.prose(secHead, st.Pending.Render(decision(c)))
	} else {
		b.prose(secHead, st.Muted.Render("→ ")+decision(c))
	}
	if c.Result != nil {
		b.prose(secHead, m.resultLine(c))
		if conf := c.Result.Confinement; !c.Started.IsZero() && conf.Landlock+len(conf.Unconfined)+len(conf.Containment) > 0 {
			if conf.Confined() {
				b.prose(secHead, st.Muted.Render("ran confined: "+clean(conf.String())))
			} else {
				b.prose(secHead, st.Error.Render(iconWarning+" ran "+clean(conf.String())))
			}
		}
	}
	if c.Origin == originReplay {
		what := "replay: a journaled call submitted again, decided by today's config and policy"
		if c.ReplayOf != "" {
			what = "replay of " + clean(c.ReplayOf) + ": submitted again, decided by today's config and policy"
		}
		b.prose(secHead, st.Warning.Render(iconReplay+" "+what))
	}
	if c.Shell {
		b.prose(secHead, st.Warning.Render(iconWarning+" shell tool: it can run any program; never auto-approved"))
	}
	cmd := &c.Command
	if cmd.Path == "" {
		b.wrapped(secHead, -1, st.Warning.Render("not expanded: the arguments were refused"), "  ")
		m.argLines(b)
		return b.d
	}
	b.argv()
	m.runLines(b)
	for i, kv := range cmd.Env {
		k, v, _ := strings.Cut(kv, "=")
		v = b.mask(part{partEnv, i}, v)
		if strings.Contains(v, "\n") {
			b.block(secEnv, i, "env +"+clean(k), v)
			continue
		}
		b.wrapped(secEnv, i, st.Muted.Render("env +")+clean(k)+"="+quote(v), "    ")
	}
	b.d.summary[secEnv] = "env · " + human.Count(len(cmd.Env), "entry", "entries")
	if cmd.Stdin != "" {
		b.block(secStdin, 0, "stdin", b.mask(part{kind: partStdin}, cmd.Stdin))
	}
	if o := c.Original; o != nil {
		b.d.summary[secEdit] = "the agent's original"
		b.wrapped(secEdit, -1, st.Muted.Render("edited; the agent asked for:"), "  ")
		q := make([]string, len(o.Argv))
		for i, a := range o.Argv {
			q[i] = quote(m.masked(c, part{partArgv, i}, a))
		}
		b.wrapped(secEdit, -1, st.Muted.Render("  "+strings.Join(q, " ")), "    ")
		if o.Stdin != cmd.Stdin {
			b.wrapped(secEdit, -1, st.Muted.Render("  and a different stdin: "+human.Size(int64(len(o.Stdin)))), "    ")
		}
	}
	return b.d
}

// runLines says where and how the command runs: its working directory,
// timeout, output cap and sandbox.
func (m *Model) runLines(b *detailBuilder) {
	st, c, cmd := b.st, b.c, &b.c.Command
	b.d.summary[secRun] = "where and how it runs"
	var meta []string
	if cmd.Dir != "" {
		meta = append(meta, "cwd "+quote(m.masked(c, part{kind: partDir}, cmd.Dir)))
	}
	if cmd.Timeout > 0 {
		meta = append(meta, "timeout "+human.Duration(cmd.Timeout))
	}
	if cmd.MaxOutput > 0 {
		capText := "output cap " + human.Size(cmd.MaxOutput)
		if cmd.OnOverflow == exec.Kill {
			capText += " (killed past it)"
		}
		meta = append(meta, capText)
	}
	if len(meta) > 0 {
		b.line(secRun, -1, wordWrap(st.Muted.Render(strings.Join(meta, " · ")), b.w, "  ")...)
	}
	sb := cmd.Sandbox
	if sb == nil {
		b.line(secRun, -1, st.Muted.Render("sandbox none: runs unconfined"))
		return
	}
	paths := func(ps []string, none string) string {
		if len(ps) == 0 {
			return none
		}
		q := make([]string, len(ps))
		for i, p := range ps {
			q[i] = quote(p)
		}
		return strings.Join(q, " ")
	}
	network := "no network"
	if sb.Network {
		network = "network allowed"
	}
	b.wrapped(secRun, -1, st.Muted.Render("sandbox reads ")+paths(sb.Read, "only the system"), "    ")
	b.wrapped(secRun, -1, st.Muted.Render("        writes ")+paths(sb.Write, "nothing"), "    ")
	b.wrapped(secRun, -1, st.Muted.Render("        ")+network, "    ")
}

// resultLine says how a call that ran ended: its exit status, the queue's
// account of what ended it when it did not exit by itself, the signal,
// time and output sizes. A call that never started has only the account.
func (m *Model) resultLine(c *queue.Call) string {
	r := c.Result
	ending := clean(m.masked(c, part{kind: partText}, c.EndingText()))
	if c.Started.IsZero() || c.Ending == queue.NotStarted {
		return m.st.Failed.Render(ending)
	}
	parts := []string{fmt.Sprintf("exit %d", r.ExitCode)}
	if ending != "" {
		parts = append(parts, ending)
	}
	if r.Signal != "" {
		parts = append(parts, clean(r.Signal))
	}
	parts = append(parts, human.Duration(c.Ended.Sub(c.Started)))
	out := fmt.Sprintf("stdout %s, stderr %s", human.Size(r.Stdout.Bytes), human.Size(r.Stderr.Bytes))
	if r.Stdout.Bytes+r.Stderr.Bytes == 0 {
		out = "no output"
	}
	if r.Stdout.Truncated || r.Stderr.Truncated {
		out += " (truncated)"
	}
	s := strings.Join(append(parts, out), " · ")
	if c.Ending != queue.Exited || r.ExitCode != 0 {
		return m.st.Failed.Render(s)
	}
	return m.st.OK.Render(s)
}

// argLines lists the arguments of a call that was never expanded.
func (m *Model) argLines(b *detailBuilder) {
	c := b.c
	keys := make([]string, 0, len(c.Args))
	for k := range c.Args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		v := maskArg(c, k, c.Args[k])
		var sb strings.Builder
		enc := json.NewEncoder(&sb)
		enc.SetEscapeHTML(false)
		text := fmt.Sprint(v)
		if enc.Encode(v) == nil {
			text = strings.TrimSuffix(sb.String(), "\n")
		}
		b.wrapped(secArgv, i, "  "+clean(k)+"="+clean(text), "    ")
	}
}
