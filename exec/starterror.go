package exec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Exit codes for a program that never ran, as a shell reports them, so an
// agent reading the result recognises them.
const (
	exitNotExecutable = 126
	exitNotStarted    = 127
)

// notStarted is the Result for a command that could not be started; there
// is no output and no duration to report.
func notStarted(code int, why string) Result {
	return Result{ExitCode: code, StartError: why}
}

// refused is the Result for a command the runner would not start.
func refused(why string) Result {
	return Result{ExitCode: exitNotStarted, StartError: why, Refused: true}
}

// explainStart turns the error from starting cmd into an exit code and a
// message that says what was wrong. execve reports only an errno, and
// ENOENT alone does not say whether the program or the working directory
// is missing, so the likely culprits are looked at again. The tool file was
// checked when it loaded, so a missing program means it was removed or
// moved since; that is worth saying, because reloading is the fix.
func explainStart(cmd Command, err error) (code int, why string) {
	if cmd.Dir != "" {
		fi, serr := os.Stat(cmd.Dir)
		switch {
		case serr != nil:
			return exitNotStarted, fmt.Sprintf("working directory %s: %v", cmd.Dir, unwrapPath(serr))
		case !fi.IsDir():
			return exitNotStarted, fmt.Sprintf("working directory %s is not a directory", cmd.Dir)
		}
	}
	if _, serr := os.Stat(cmd.Path); errors.Is(serr, fs.ErrNotExist) {
		return exitNotStarted, fmt.Sprintf("program %s not found: it was removed or moved after the tool was loaded", cmd.Path)
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		return exitNotExecutable, fmt.Sprintf("program %s may not be executed: permission denied", cmd.Path)
	case errors.Is(err, syscall.ENOEXEC):
		return exitNotExecutable, fmt.Sprintf("program %s cannot be executed: not a format this system runs", cmd.Path)
	}
	return exitNotStarted, fmt.Sprintf("program %s could not be started: %v", cmd.Path, unwrapPath(err))
}

// unwrapPath drops the operation and path a PathError repeats, since the
// message names the path already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
