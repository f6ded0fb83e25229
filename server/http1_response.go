package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/assent-sh/assent/exec"
)

// httpResponse is the http.ResponseWriter of one request of an httpConn.
// What the handler writes is kept until it returns, and then goes out with
// its length in one write. A handler that flushes, or writes more than
// maxBuffered, has its answer streamed instead: in chunks to an HTTP/1.1
// client, else until the connection closes.
type httpResponse struct {
	c       *httpConn
	req     *http.Request
	reqBody *watchedBody // nil for a request without a body
	slow    *exec.Slow   // the request's notice that it is slow
	header  http.Header
	status  int    // 0 until WriteHeader
	body    []byte // kept until the header goes out

	committed  bool  // the status line and header are written
	chunked    bool  // the body goes in chunks
	declared   int64 // the Content-Length a streamed answer declared, or -1
	written    int64 // the body bytes written since the header
	closeAfter bool  // the connection ends with this answer
	done       bool  // the handler has returned
	err        error // the first write to the connection that failed
}

// maxBuffered is the most of an answer kept to be sent with its length;
// beyond it the answer is streamed.
const maxBuffered = 256 << 10

// errHandlerReturned is what a write gets once its handler has returned.
var errHandlerReturned = errors.New("http: write after the handler returned")

func (w *httpResponse) Header() http.Header { return w.header }

// WriteHeader sets the status. Informational codes are not sent: the
// endpoint's handlers send none.
func (w *httpResponse) WriteHeader(code int) {
	if code < 100 || code > 999 {
		panic(fmt.Sprintf("invalid WriteHeader code %v", code))
	}
	if w.status != 0 || w.done || code < 200 {
		return
	}
	w.status = code
}

func (w *httpResponse) Write(p []byte) (int, error) {
	if w.done {
		return 0, errHandlerReturned
	}
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.req.Method == http.MethodHead {
		return len(p), nil
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if !w.committed {
		if n, ok := declaredLength(w.header); ok && int64(len(w.body)+len(p)) > n {
			return 0, http.ErrContentLength
		}
		if len(w.body)+len(p) <= maxBuffered {
			w.body = append(w.body, p...)
			return len(p), nil
		}
		if err := w.commit(false); err != nil {
			return 0, err
		}
	}
	return w.writeBody(p)
}

// Flush sends what is written so far: the header, and the body kept.
func (w *httpResponse) Flush() { _ = w.FlushError() }

// FlushError is Flush, reporting a failed write (http.ResponseController).
func (w *httpResponse) FlushError() error {
	if w.done {
		return errHandlerReturned
	}
	w.slow.Give() // an answer streamed is one that lasts
	if !w.committed {
		if err := w.commit(false); err != nil {
			return err
		}
	}
	if w.err == nil {
		w.err = w.c.bw.Flush()
	}
	return w.err
}

// SetWriteDeadline bounds the writes to the connection
// (http.ResponseController; mcp-go bounds its event streams' writes).
func (w *httpResponse) SetWriteDeadline(t time.Time) error { return w.c.rwc.SetWriteDeadline(t) }

// commit writes the status line and the header, followed by the body kept
// so far; final says that the handler has returned, so the length is that
// of the body kept.
func (w *httpResponse) commit(final bool) error {
	w.committed = true
	if w.status == 0 {
		w.status = http.StatusOK
	}
	h := w.header
	if w.req.Close || w.c.s.isClosing() || headerSays(h, "Connection", "close") {
		w.closeAfter = true
	}
	if b := w.reqBody; b != nil && !b.eof && !w.closeAfter {
		// The connection can carry another request only once this one's
		// body is read; a handler that streams may read on.
		if !final || !b.drain(w.c) {
			w.closeAfter = true
		}
	}
	if _, ok := h["Date"]; !ok {
		h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	}
	if _, ok := h["Content-Type"]; !ok && len(w.body) > 0 {
		h.Set("Content-Type", http.DetectContentType(w.body))
	}
	w.declared = -1
	h.Del("Transfer-Encoding") // the framing is this writer's to choose
	switch {
	case !bodyAllowed(w.status):
		h.Del("Content-Length")
	case w.req.Method == http.MethodHead:
	case final:
		h.Set("Content-Length", strconv.Itoa(len(w.body)))
	default:
		if n, ok := declaredLength(h); ok {
			w.declared = n
			break
		}
		h.Del("Content-Length")
		if w.req.ProtoAtLeast(1, 1) {
			w.chunked = true
			h.Set("Transfer-Encoding", "chunked")
		} else {
			w.closeAfter = true // the end of the body is the end of the connection
		}
	}
	switch {
	case w.closeAfter:
		h.Set("Connection", "close")
	case !w.req.ProtoAtLeast(1, 1):
		h.Set("Connection", "keep-alive") // an HTTP/1.0 client asked for it
	}
	bw := w.c.bw
	_, _ = bw.WriteString("HTTP/1.1 " + httpStatusLine(w.status) + "\r\n")
	_ = h.Write(bw)
	_, err := bw.WriteString("\r\n")
	w.noteErr(err)
	kept := w.body
	w.body = nil
	if len(kept) > 0 {
		if final {
			_, err = bw.Write(kept)
			w.noteErr(err)
		} else {
			_, _ = w.writeBody(kept)
		}
	}
	return w.err
}

// writeBody writes p after the header, framed as the header says.
func (w *httpResponse) writeBody(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if w.declared >= 0 && w.written+int64(len(p)) > w.declared {
		return 0, http.ErrContentLength
	}
	bw := w.c.bw
	if w.chunked {
		_, _ = bw.WriteString(strconv.FormatInt(int64(len(p)), 16) + "\r\n")
	}
	n, err := bw.Write(p)
	if w.chunked && err == nil {
		_, err = bw.WriteString("\r\n")
	}
	w.written += int64(n)
	w.noteErr(err)
	return n, err
}

// finish sends what the handler left and reports whether the connection
// may carry another request.
func (w *httpResponse) finish() bool {
	if !w.committed {
		_ = w.commit(true)
	} else if w.chunked && w.err == nil {
		_, err := w.c.bw.WriteString("0\r\n\r\n")
		w.noteErr(err)
	}
	w.done = true
	if w.declared >= 0 && w.written != w.declared {
		w.closeAfter = true // the client still counts on bytes that never come
	}
	if w.err == nil {
		w.noteErr(w.c.bw.Flush())
	}
	return w.err == nil && !w.closeAfter
}

func (w *httpResponse) noteErr(err error) {
	if err != nil && w.err == nil {
		w.err = err
		w.closeAfter = true
	}
}

// declaredLength is the Content-Length a handler set in h, if any.
func declaredLength(h http.Header) (int64, bool) {
	v, ok := h["Content-Length"]
	if !ok || len(v) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(v[0], 10, 64)
	return n, err == nil && n >= 0
}

// bodyAllowed reports whether an answer with the status may have a body.
func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// headerSays reports whether one of the comma-separated values of header
// key in h is value, ignoring case.
func headerSays(h http.Header, key, value string) bool {
	for _, v := range h[key] {
		for part := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), value) {
				return true
			}
		}
	}
	return false
}

// httpStatusLine is a status's code and reason, as a status line ends.
func httpStatusLine(status int) string {
	text := http.StatusText(status)
	if text == "" {
		text = "status code " + strconv.Itoa(status)
	}
	return strconv.Itoa(status) + " " + text
}
