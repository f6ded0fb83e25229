//go:build unix && !linux

package exec

import "errors"

// execFn is known only on Linux.
func execFn() (string, error) { return "", errors.New("no AT_EXECFN here") }

func chainHead(string) int { return reportErr(errors.New("no fork chain here")) }

func seizeStdin() int { return reportErr(errors.New("no ptrace here")) }

func thief([]string) int { return reportErr(errors.New("no thief here")) }

func leaveThief(string) int { return reportErr(errors.New("no thief here")) }
