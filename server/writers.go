package server

import "net/http"

// watchedWriter notes the status a handler answered with, and passes
// everything through; it flushes, so mcp-go still streams through it.
type watchedWriter struct {
	http.ResponseWriter
	status int // 0 until the header is written
	// onHeader, when set, runs as the header is about to go out, before
	// the client can see any of the response.
	onHeader func(status int, h http.Header)
}

func (w *watchedWriter) WriteHeader(status int) {
	w.noteHeader(status)
	w.ResponseWriter.WriteHeader(status)
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.noteHeader(http.StatusOK)
	return w.ResponseWriter.Write(p)
}

func (w *watchedWriter) noteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	if w.onHeader != nil {
		w.onHeader(status, w.Header())
	}
}

// Flush sends what is buffered, when the underlying writer can.
func (w *watchedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *watchedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// discard is a ResponseWriter that keeps nothing.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
