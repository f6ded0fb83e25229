package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/journal"
)

// runVerify checks the whole journal and says what holds, what does not,
// and what the check can and cannot prove.
func (o logOptions) runVerify(stdout io.Writer) error {
	rep, err := journal.Verify(o.path)
	if err != nil {
		return err
	}
	if o.json {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		writeReport(stdout, o.path, rep)
	}
	if !rep.Intact() {
		return &exitError{code: exitChainBroken,
			err: fmt.Errorf("journal %s does not verify: %s, the first: %v", o.path, human.Count(len(rep.Faults), "problem"), &rep.Faults[0])}
	}
	return nil
}

// writeReport prints a verification report for people.
func writeReport(w io.Writer, path string, rep journal.Report) {
	state := "intact"
	if !rep.Intact() {
		state = human.Count(len(rep.Faults), "problem")
	}
	records, seals := human.Count(rep.Records, "record"), human.Count(rep.Seals, "seal")
	if len(rep.Segments) == 0 {
		fmt.Fprintf(w, "%s: %s, %s, %s, head %s\n", path, records, seals, state, rep.Head)
	} else {
		fmt.Fprintf(w, "%s: %s in %s, %s, %s\n", path, records, human.Count(len(rep.Segments), "segment"), seals, state)
	}
	for _, f := range rep.Faults {
		fmt.Fprintf(w, "  %s: %s\n", f.Kind, exec.Escape(f.Error()))
	}
	if rep.TornBytes > 0 {
		fmt.Fprintf(w, "  %s of unfinished last lines were not checked (a writer may be appending them)\n", human.Count(rep.TornBytes, "byte"))
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "  note: %s\n", exec.Escape(n))
	}
	fmt.Fprintf(w, "This shows, when intact:\n  - %s\n", strings.Join(rep.Proves, "\n  - "))
	fmt.Fprintf(w, "It cannot show:\n  - %s\n", strings.Join(rep.CannotProve, "\n  - "))
}

// runHead prints each segment's head: seq, hash, and whether it is closed.
func (o logOptions) runHead(stdout io.Writer) error {
	heads, err := journal.Heads(o.path)
	if err != nil {
		return err
	}
	if o.json {
		return json.NewEncoder(stdout).Encode(heads)
	}
	for _, h := range heads {
		state := "open"
		if h.Closed {
			state = "closed"
		}
		fmt.Fprintf(stdout, "%s %d %s %s\n", exec.Escape(h.Segment), h.Seq, h.Hash, state)
	}
	return nil
}
