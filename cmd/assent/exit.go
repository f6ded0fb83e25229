package main

import "errors"

// exitError carries a specific exit status out of a command. Commands whose
// exit code carries meaning (check, explain, log --verify) return one.
type exitError struct {
	code int
	err  error
	// quiet means the command already printed what the error says, so
	// main prints nothing more.
	quiet bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCode maps an error from a command to the process exit status: 1 unless
// the command asked for a specific one.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}
