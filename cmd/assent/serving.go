package main

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/assent-sh/assent/server"
)

// serving is assent listening: the app, its Streamable HTTP transport
// serving in the background, and the runtime file that tells local tools
// where. The console and headless mode start and stop it the same way.
type serving struct {
	app     *app
	http    *server.HTTP
	runtime string // "" when it could not be written
	// ended is closed when the HTTP server stops, by shutdown or by a
	// failure; serveErr is set before.
	ended    chan struct{}
	serveErr error
}

// start builds the app with logs to logw, listens, writes the runtime file
// and serves. Every error it returns happens before anything is served.
func (o serveOptions) start(tok, tokenFrom string, logw io.Writer) (*serving, error) {
	a, err := newApp(o.app, logw)
	if err != nil {
		return nil, err
	}
	h, err := a.server.ListenHTTP(server.HTTPOptions{Addr: o.listen, Token: tok, AllowRemote: o.allowRemote})
	if err != nil {
		return nil, errors.Join(err, a.close("assent did not start"))
	}
	s := &serving{app: a, http: h, ended: make(chan struct{})}
	if s.runtime, err = writeRuntime(h.URL(), tokenFrom); err != nil {
		a.log.Warn("runtime file not written; local tools will not find this server", "err", err)
	}
	go func() {
		s.serveErr = h.Serve()
		close(s.ended)
	}()
	return s, nil
}

// stop answers every call first (pending ones denied with reason, running
// ones killed), so that no request holds the shutdown; then it stops HTTP,
// removes the runtime file and closes the journal.
func (s *serving) stop(reason string) error {
	cerr := s.app.close(reason)
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	herr := s.http.Shutdown(ctx)
	<-s.ended
	if s.runtime != "" {
		if err := server.RemoveRuntime(s.runtime, os.Getpid()); err != nil {
			s.app.log.Warn("runtime file not removed", "err", err)
		}
	}
	return errors.Join(s.serveErr, cerr, herr)
}

// writeRuntime writes the runtime file and returns its path.
func writeRuntime(url, tokenFrom string) (string, error) {
	path, err := server.RuntimePath()
	if err != nil {
		return "", err
	}
	rt := server.Runtime{URL: url, TokenFile: tokenFrom, PID: os.Getpid(), Started: time.Now().UTC()}
	if tokenFrom == "$"+tokenEnv {
		rt.TokenFile, rt.TokenEnv = "", tokenEnv
	}
	if err := server.WriteRuntime(path, rt); err != nil {
		return "", err
	}
	return path, nil
}
