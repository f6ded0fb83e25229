package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync/atomic"
)

// RelayOptions say which console to relay to.
type RelayOptions struct {
	// Dir is the runtime directory; default state.RuntimeDir(), found from
	// the uid alone, as the console finds it. The command line never sets
	// it (tests do).
	Dir string
	// Console is the console's name; "" means the only one running.
	Console string
	// Logger receives what the relay notices; default none. Never stdout.
	Logger *slog.Logger
}

// Relay carries an agent's stdio MCP session (in, out) to a console over
// its local socket, so that an agent that can only spawn its MCP servers
// reaches the console a person is watching. The socket speaks what stdio
// speaks, one message a line, so the relay copies bytes and changes
// nothing: the console answers batches, cancellations and either protocol
// era exactly as `assent stdio --headless` does. It reads no runtime file
// and sends no credential: DialConsole checks the directory, the socket and
// the listening process's uid before a byte goes out.
//
// Relay returns when the console closes the connection (after in ended,
// every call in flight is withdrawn and answered), or at once when ctx
// ends (a signal): closing the connection then withdraws the calls. A Read
// blocked on in is left to end when in is closed.
func Relay(ctx context.Context, o RelayOptions, in io.Reader, out io.Writer) error {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	conn, c, err := DialConsole(o.Dir, o.Console)
	if err != nil {
		return err
	}
	o.Logger.Info("relaying to the console", "console", c.Name, "pid", c.PID, "socket", c.Socket)
	var inputEnded atomic.Bool
	toConsole := make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, in)
		// End of input: the console withdraws what is in flight, answers,
		// and closes its side.
		inputEnded.Store(true)
		_ = conn.CloseWrite()
		toConsole <- err
	}()
	fromConsole := make(chan error, 1)
	go func() {
		_, err := io.Copy(out, conn)
		fromConsole <- err
	}()
	select {
	case <-ctx.Done():
		conn.Close()
		<-fromConsole
		return nil
	case err := <-fromConsole:
		conn.Close()
		if !inputEnded.Load() {
			return fmt.Errorf("the console %s closed the connection (it quit or stopped)", c.Name)
		}
		if ierr := <-toConsole; ierr != nil && !errors.Is(ierr, net.ErrClosed) {
			return fmt.Errorf("reading from the agent: %w", ierr)
		}
		if err != nil && !errors.Is(err, net.ErrClosed) {
			return fmt.Errorf("writing to the agent: %w", err)
		}
		return nil
	}
}
