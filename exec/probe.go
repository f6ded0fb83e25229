package exec

import (
	"fmt"
	"strings"
)

// Support is what this machine lets the runner enforce, as `assent check`
// and the console's header report it. Local.Probe finds it out.
type Support struct {
	// Mode is the runner's sandbox mode.
	Mode SandboxMode `json:"mode"`
	// Landlock is the kernel's Landlock ABI version, 0 when it has none;
	// NoLandlock then says why.
	Landlock   int    `json:"landlock,omitempty"`
	NoLandlock string `json:"no_landlock,omitempty"`
	// Seccomp says a command without network is refused every socket.
	Seccomp bool `json:"seccomp,omitempty"`
	// NetNamespace says a command without network joins an empty network
	// namespace: seccomp does not work here, and one can be made (it takes
	// CAP_SYS_ADMIN).
	NetNamespace bool `json:"net_namespace,omitempty"`
	// DropsCapabilities says a sandboxed program run as root gets no
	// capabilities (a root that keeps them can step around any sandbox:
	// kernel modules, raw I/O, bpf, mounts). Only a runner that holds
	// root's capabilities itself has them to drop.
	DropsCapabilities bool `json:"drops_capabilities,omitempty"`
	// Containment is how runs hold their processes.
	Containment Containment `json:"containment"`
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
// landlock) · subreaper", "sandbox required: landlock v7 · network denied
// (seccomp, landlock) · root's capabilities dropped · subreaper" (a runner
// that is root) or "sandbox best-effort: unconfined (the kernel has no
// Landlock) · network unconfined · process-group".
func (s Support) String() string {
	fsPart := fmt.Sprintf("landlock v%d", s.Landlock)
	if s.Landlock == 0 {
		fsPart = "unconfined (" + s.NoLandlock + ")"
	}
	if s.Mode == SandboxOff {
		return "sandbox off · " + string(s.Containment)
	}
	caps := ""
	if s.DropsCapabilities {
		caps = " · root's capabilities dropped"
	}
	return fmt.Sprintf("sandbox %s: %s · network %s%s · %s", s.Mode, fsPart, s.Network(), caps, s.Containment)
}
