package exec

import (
	"fmt"
	"strings"
)

// Support is what this machine lets the runner enforce, as `assent check`
// and the console's header report it. Local.Probe finds it out.
type Support struct {
	// OS is the operating system, as Go names it.
	OS string `json:"os"`
	// Mode is the runner's sandbox mode.
	Mode SandboxMode `json:"mode"`
	// Landlock is the kernel's Landlock ABI version, 0 when it has none;
	// NoLandlock then says why.
	Landlock   int    `json:"landlock,omitempty"`
	NoLandlock string `json:"no_landlock,omitempty"`
	// Seccomp says a command without network is refused every socket.
	Seccomp bool `json:"seccomp,omitempty"`
	// NetNamespace says an empty network namespace can be made (it takes
	// CAP_SYS_ADMIN); a command without network joins it where seccomp
	// does not work.
	NetNamespace bool `json:"net_namespace,omitempty"`
	// DropsCapabilities says a sandboxed program run as root gets no
	// capabilities (a root that keeps them can step around any sandbox:
	// kernel modules, raw I/O, bpf, mounts).
	DropsCapabilities bool `json:"drops_capabilities,omitempty"`
	// Containment is how runs hold their processes.
	Containment Containment `json:"containment"`
	// PinnedExec says a pinned program runs from the very file whose
	// identity was checked (through /proc/self/fd), not by its path again.
	PinnedExec bool `json:"pinned_exec,omitempty"`
}

// NetworkBy lists what denies a command without network here, as its
// Confinement.NetworkBy will.
func (s Support) NetworkBy() []string {
	var by []string
	switch {
	case s.Seccomp:
		by = append(by, "seccomp")
	case s.NetNamespace:
		by = append(by, "namespace")
	}
	if s.Landlock >= 4 {
		by = append(by, "landlock")
	}
	return by
}

// Network says how a command without network has it denied here, as its
// Confinement will: "denied (seccomp, landlock)", "denied (namespace,
// landlock)", "tcp-denied (landlock)" or "unconfined".
func (s Support) Network() string {
	by := s.NetworkBy()
	switch {
	case s.NetNamespace || s.Seccomp:
		return NetworkDenied + " (" + strings.Join(by, ", ") + ")"
	case len(by) > 0:
		return NetworkTCPDenied + " (" + strings.Join(by, ", ") + ")"
	}
	return NetworkUnconfined
}

// String is one line for the console header and `assent check`, for
// example "sandbox best-effort: landlock v7 · network denied (seccomp,
// landlock) · subreaper" or "sandbox best-effort: unconfined (the
// kernel has no Landlock) · network unconfined · process-group".
func (s Support) String() string {
	fsPart := fmt.Sprintf("landlock v%d", s.Landlock)
	if s.Landlock == 0 {
		fsPart = "unconfined (" + s.NoLandlock + ")"
	}
	if s.Mode == SandboxOff {
		return "sandbox off · " + string(s.Containment)
	}
	return fmt.Sprintf("sandbox %s: %s · network %s · %s", s.Mode, fsPart, s.Network(), s.Containment)
}
