//go:build !linux

package exec

import (
	"errors"
	"os"
)

// awaitExit cannot wait without reaping here, so it says so and the runner
// reaps as soon as the leader exits. The final kill of the group then comes
// after the reap: if the group is empty by then, its id could in principle
// have been reused, a window Linux does not have.
func awaitExit(*os.Process) error {
	return errors.ErrUnsupported
}
