package main

import (
	"context"
	"errors"
	"io"

	"github.com/assent-sh/assent/server"
)

// serving is assent listening: the app, its Streamable HTTP transport and
// its local socket (with the runtime file beside it), serving in the
// background. The console and headless mode start and stop it the same
// way.
type serving struct {
	app    *app
	http   *server.HTTP
	socket *server.Socket // nil when it could not listen
	// ended is closed when the HTTP server stops, by shutdown or by a
	// failure; serveErr is set before.
	ended    chan struct{}
	serveErr error
}

// start builds the app with logs to logw, listens and serves. Every error
// it returns happens before anything is served.
func (o serveOptions) start(tok string, logw io.Writer) (*serving, error) {
	a, err := newApp(o.app, logw)
	if err != nil {
		return nil, err
	}
	h, err := a.server.ListenHTTP(server.HTTPOptions{Addr: o.listen, Token: tok, AllowRemote: o.allowRemote})
	if err != nil {
		return nil, errors.Join(err, a.close("assent did not start"))
	}
	s := &serving{app: a, http: h, ended: make(chan struct{})}
	s.socket, err = a.server.ListenSocket(server.SocketOptions{Dir: runtimeDirForTests, Name: o.console, URL: h.URL()})
	switch {
	case err != nil && o.console != "":
		return nil, errors.Join(err, h.Shutdown(context.Background()), a.close("assent did not start"))
	case err != nil:
		a.log.Warn("no local socket: `assent stdio` cannot relay to this console (HTTP works)", "err", err)
	default:
		go func() {
			if err := s.socket.Serve(); err != nil {
				a.log.Error("the local socket stopped", "err", err)
			}
		}()
	}
	go func() {
		s.serveErr = h.Serve()
		close(s.ended)
	}()
	return s, nil
}

// stop answers every call first (pending ones denied with reason, running
// ones killed), so that no request holds the shutdown; then it stops HTTP
// and the socket (which removes its files) and closes the journal.
func (s *serving) stop(reason string) error {
	cerr := s.app.close(reason)
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	herr := s.http.Shutdown(ctx)
	<-s.ended
	var serr error
	if s.socket != nil {
		serr = s.socket.Shutdown(ctx)
	}
	return errors.Join(s.serveErr, cerr, herr, serr)
}

// consoleName is how the console is named for `assent stdio --console`,
// or "" when it has no socket.
func (s *serving) consoleName() string {
	if s.socket == nil {
		return ""
	}
	return s.socket.Name()
}

// relayCommand is the command that relays an agent to this console: plain
// `assent stdio` while it is the only console running, which the relay
// finds without a name; with others running, `assent stdio --console
// NAME`. "" when it has no socket.
func (s *serving) relayCommand() string {
	name := s.consoleName()
	if name == "" {
		return ""
	}
	if live, err := server.Consoles(runtimeDirForTests); err == nil && len(live) == 1 && live[0].Name == name {
		return "assent stdio"
	}
	return "assent stdio --console " + name
}
