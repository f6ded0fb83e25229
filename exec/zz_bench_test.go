//go:build linux

package exec

import (
	"errors"
	"testing"
)

func BenchmarkZZSandboxParts(b *testing.B) {
	plain := Command{Path: "/bin/true", Argv: []string{"true"}}
	for _, tc := range []struct {
		name  string
		o     Options
		sb    *Sandbox
		tweak func(s *sandboxes)
	}{
		{"all3", Options{}, &Sandbox{}, nil},
		{"landlock+seccomp", Options{}, &Sandbox{}, func(s *sandboxes) { s.netnsErr = errors.New("x") }},
		{"landlock+netns", Options{}, &Sandbox{}, func(s *sandboxes) { s.filter, s.fprog = nil, nil }},
		{"landlock", Options{}, &Sandbox{Network: true}, nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			l := NewLocal(tc.o)
			defer l.Close()
			l.os.sandbox.probe()
			if tc.tweak != nil {
				tc.tweak(&l.os.sandbox)
			}
			boxed := plain
			boxed.Sandbox = tc.sb
			benchPair(b, "sandboxed", runOK(b, l, boxed), "unsandboxed", runOK(b, l, plain))
		})
	}
}
