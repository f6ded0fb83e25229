package journal

import (
	"encoding/json"
	"time"
)

// briefRecord is what ReadOptions.Brief decodes of a line: the fields a
// call's fold uses for a table, nothing that is large or only for replay.
// encoding/json skips the rest without building it.
type briefRecord struct {
	Seq      int64         `json:"seq"`
	Time     time.Time     `json:"time"`
	Call     string        `json:"call"`
	Event    Event         `json:"event"`
	Tool     string        `json:"tool"`
	Client   string        `json:"client"`
	Session  string        `json:"session"`
	Path     string        `json:"path"`
	Argv     []string      `json:"argv"`
	Cwd      string        `json:"cwd"`
	Decision Decision      `json:"decision"`
	Decider  Decider       `json:"decider"`
	Rule     string        `json:"rule"`
	Reason   string        `json:"reason"`
	Edit     *Edit         `json:"edit"`
	Ending   Ending        `json:"ending"`
	Exit     *int          `json:"exit"`
	Signal   string        `json:"signal"`
	Duration time.Duration `json:"duration_ns"`
	TimedOut bool          `json:"timed_out"`
	Error    string        `json:"error"`
	Segment  string        `json:"segment"`
	Part     int           `json:"part"`
}

// decodeBrief decodes the brief part of a line: by briefScan when the
// line is as the encoder writes them, else by encoding/json.
func decodeBrief(line []byte, r *Record) error {
	var b briefRecord
	if scan := (briefScan{b: line}); !scan.record(&b) {
		b = briefRecord{}
		if err := json.Unmarshal(line, &b); err != nil {
			return err
		}
	}
	b.into(r)
	return nil
}

// into fills r from a brief record.
func (b briefRecord) into(r *Record) {
	*r = Record{Seq: b.Seq, Time: b.Time, Call: b.Call, Event: b.Event, Tool: b.Tool, Client: b.Client,
		Session: b.Session, Path: b.Path, Argv: b.Argv, Cwd: b.Cwd, Decision: b.Decision, Decider: b.Decider,
		Rule: b.Rule, Reason: b.Reason, Edit: b.Edit, Ending: b.Ending, Exit: b.Exit, Signal: b.Signal,
		Duration: b.Duration, TimedOut: b.TimedOut, Error: b.Error, Segment: b.Segment, Part: b.Part}
}
