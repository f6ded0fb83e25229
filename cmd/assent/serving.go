package main

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/assent-sh/assent/config"
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

// start builds the app with logs to logw, listens and serves, with the
// token tok read from tokenFrom (resolveToken's). Every error it returns
// happens before anything is served.
//
// A token file is protected as the journal is: a tool that could write it
// could set the token, and reach the console over HTTP as any client.
func (o serveOptions) start(tok, tokenFrom string, logw io.Writer) (*serving, error) {
	if file := tokenFileShown(tokenFrom); file != "" {
		o.app.protected = append(slices.Clip(o.app.protected), config.ProtectedFile{What: "token file", Path: file})
	}
	a, err := newApp(o.app, logw)
	if err != nil {
		return nil, err
	}
	h, err := a.server.ListenHTTP(server.HTTPOptions{Addr: o.listen, Token: tok, AllowRemote: o.allowRemote})
	if err != nil {
		return nil, errors.Join(err, a.close("assent did not start"))
	}
	s := &serving{app: a, http: h, ended: make(chan struct{})}
	if !o.noSocket {
		if err := s.listenSocket(o.console); err != nil {
			return nil, errors.Join(err, h.Shutdown(context.Background()), a.close("assent did not start"))
		}
	}
	go func() {
		s.serveErr = h.Serve()
		close(s.ended)
	}()
	return s, nil
}

// listenSocket claims the console's name and serves its local socket in
// the background. HTTP works without it, so a failure is only logged,
// unless the console was named (--console): then it is an error.
func (s *serving) listenSocket(name string) error {
	k, err := s.app.server.ListenSocket(server.SocketOptions{Dir: runtimeDirForTests, Name: name, URL: s.http.URL()})
	switch {
	case err != nil && name != "":
		return err
	case err != nil:
		s.app.log.Warn("no local socket: `assent stdio` cannot relay to this console (HTTP works)", "err", err)
		return nil
	}
	s.socket = k
	go func() {
		if err := k.Serve(); err != nil {
			s.app.log.Error("the local socket stopped", "err", err)
		}
	}()
	return nil
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
