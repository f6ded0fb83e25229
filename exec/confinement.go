package exec

import (
	"fmt"
	"strings"
)

// SandboxMode says what the runner does with a command's Sandbox.
type SandboxMode string

const (
	// SandboxBestEffort confines what the kernel can confine and runs the
	// rest unconfined, saying so in the Result. The zero value means it.
	SandboxBestEffort SandboxMode = "best-effort"
	// SandboxRequired refuses a call that cannot be confined, with the
	// reason, rather than run it unconfined.
	SandboxRequired SandboxMode = "required"
	// SandboxOff runs every command unconfined.
	SandboxOff SandboxMode = "off"
)

// ParseSandboxMode reads a settings value: "required", "best-effort" or
// "off"; empty means best-effort.
func ParseSandboxMode(s string) (SandboxMode, error) {
	switch m := SandboxMode(s); m {
	case "":
		return SandboxBestEffort, nil
	case SandboxBestEffort, SandboxRequired, SandboxOff:
		return m, nil
	}
	return "", fmt.Errorf("unknown sandbox mode %q (want required, best-effort or off)", s)
}

// Containment is how the runner makes sure that every process a call
// started is gone when the call ends.
type Containment string

const (
	// ContainAuto picks the best containment this system offers: on Linux
	// the subreaper, elsewhere the process group. The zero value means it.
	ContainAuto Containment = ""
	// ContainSubreaper makes this process the reaper of orphaned
	// descendants, so one that left its group (setsid, a double fork) comes
	// back to the runner and is ended with its call. Linux only. The
	// subreaper is the whole process's: one runner per process, since a
	// runner cannot tell another runner's calls from processes that came
	// back to it.
	ContainSubreaper Containment = "subreaper"
	// ContainPIDNamespace runs each call as the first process of a PID
	// namespace of its own, which the kernel empties when that process
	// exits. Linux, with CAP_SYS_ADMIN. The program is then PID 1, with
	// PID 1's rules: it cannot signal itself (raise, kill of its own pid
	// are ignored), and a signal it has no handler for reaches it only if
	// it is SIGKILL, so the runner carries out SIGTERM's default action
	// itself. Opt-in for that reason.
	ContainPIDNamespace Containment = "pid-namespace"
	// ContainGroup ends the call's process group only; a process that left
	// it can outlive the call. What other systems get.
	ContainGroup Containment = "process-group"
)

// Confinement is what held one run: the sandbox the kernel applied, how
// its network was denied, and how its processes were contained. A Result
// carries it so the console, the journal and an agent can say whether a
// call ran confined.
type Confinement struct {
	// Landlock is the Landlock ABI version that confined the filesystem to
	// the sandbox's sets; 0 means the filesystem was not confined.
	Landlock int `json:"landlock,omitempty"`
	// Network is "allowed" when the tool asked for it, "denied" when every
	// socket but a socketpair was refused, "tcp-denied" when only TCP was
	// (UDP and MPTCP open), or "unconfined".
	Network string `json:"network,omitempty"`
	// NetworkBy lists what denied the network: "seccomp" (every socket
	// refused), "namespace" (an empty network namespace, where seccomp is
	// not to be had; unix sockets of local daemons stay reachable),
	// "landlock" (TCP bind and connect refused).
	NetworkBy []string `json:"network_by,omitempty"`
	// Containment is how the call's processes were held together.
	Containment Containment `json:"containment,omitempty"`
	// Unconfined says why the sandbox was not applied, or only in part;
	// empty when the whole sandbox held.
	Unconfined string `json:"unconfined,omitempty"`
}

// Network values of a Confinement.
const (
	NetworkAllowed    = "allowed"
	NetworkDenied     = "denied"
	NetworkTCPDenied  = "tcp-denied"
	NetworkUnconfined = "unconfined"
)

// Confined reports whether the filesystem sandbox held.
func (c Confinement) Confined() bool { return c.Landlock > 0 }

// String is one line for the console and logs, for example
// "landlock v7 · network denied (seccomp, landlock) · subreaper"
// or "unconfined: the kernel has no Landlock · network unconfined · subreaper".
func (c Confinement) String() string {
	var parts []string
	if c.Landlock > 0 {
		parts = append(parts, fmt.Sprintf("landlock v%d", c.Landlock))
	}
	if c.Unconfined != "" {
		parts = append(parts, "unconfined: "+c.Unconfined)
	}
	if c.Network != "" {
		n := "network " + c.Network
		if len(c.NetworkBy) > 0 {
			n += " (" + strings.Join(c.NetworkBy, ", ") + ")"
		}
		parts = append(parts, n)
	}
	if c.Containment != "" {
		parts = append(parts, string(c.Containment))
	}
	return strings.Join(parts, " · ")
}
