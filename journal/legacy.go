package journal

import "strings"

// legacyEnding is the legacy reading: how a call ended, read from the other
// fields of the record that ended it, for journals written before records
// carried an Ending. It is the one place old records are interpreted so;
// a record with an Ending is always taken at its word.
//
// What old records cannot say is read the safe way: a run cancelled by the
// client and one ended by assent shutting down wrote the same reason, and
// both read as CancelledByClient; a run the output cap ended reads as
// Exited (the signal is still shown).
func legacyEnding(r Record) Ending {
	switch r.Event {
	case Finished:
		switch {
		case r.TimedOut:
			return TimedOut
		case strings.HasPrefix(r.Reason, "killed by the operator"):
			return KilledByOperator
		case strings.HasPrefix(r.Reason, "cancelled"):
			return CancelledByClient
		case r.Error != "":
			return NotStarted
		}
		return Exited
	case Decided:
		if r.Decision != Deny {
			return ""
		}
		switch r.Decider {
		case ByValidation, ByLimit, ByJournal:
			return Refused
		case ByClient:
			return Withdrawn
		}
		return Denied
	}
	return ""
}
