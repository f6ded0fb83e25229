package server

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// DefaultMaxBody caps a request body. The largest legitimate call is a
// tool's stdin text: a multiline value is at most 1 Mi characters, which
// JSON-escaped UTF-8 keeps well inside 8 MiB.
const DefaultMaxBody = 8 << 20

// guard is the HTTP front door. In order, before mcp-go sees a request:
//   - the Host must be a loopback name (with remote access allowed, also
//     any IP address): a page whose DNS name an attacker re-points at
//     127.0.0.1 sends its own name as Host (DNS rebinding);
//   - an Origin, when a browser sends one, must be a loopback origin, and
//     "null" (sandboxed frames, file: pages) is refused;
//   - the bearer token must match, compared in constant time; it is read
//     from the Authorization header only, never from the URL;
//   - the body must fit the cap, checked before anything decodes it.
type guard struct {
	token       []byte
	allowRemote bool
	maxBody     int64
	log         *slog.Logger
	next        http.Handler
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hostAllowed(r.Host) {
		g.refuse(w, r, http.StatusForbidden, "Host "+r.Host+" is not this server's (DNS rebinding protection)")
		return
	}
	for _, o := range r.Header.Values("Origin") {
		if !originAllowed(o) {
			g.refuse(w, r, http.StatusForbidden, "requests from web pages at "+o+" are not accepted")
			return
		}
	}
	if !g.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="assent"`)
		g.refuse(w, r, http.StatusUnauthorized,
			"a bearer token is required: send \"Authorization: Bearer <token>\"; `assent token` prints it")
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		if r.ContentLength > g.maxBody {
			g.refuse(w, r, http.StatusRequestEntityTooLarge, "the request body is larger than the limit")
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.maxBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				g.refuse(w, r, http.StatusRequestEntityTooLarge, "the request body is larger than the limit")
			} else {
				g.refuse(w, r, http.StatusBadRequest, "the request body could not be read")
			}
			return
		}
		r.Body = newReadBody(body)
	}
	g.next.ServeHTTP(w, r)
}

// readBody is a request body the guard has read whole, within the cap:
// what comes after it reads the bytes without a copy (bodyOf).
type readBody struct {
	*bytes.Reader
	data []byte
}

func newReadBody(body []byte) *readBody { return &readBody{Reader: bytes.NewReader(body), data: body} }

// Close closes nothing.
func (*readBody) Close() error { return nil }

// bodyOf returns r's whole body. A body the guard read is returned as it
// is, and left unread for mcp-go; any other is read and put back.
func bodyOf(r *http.Request) ([]byte, error) {
	if b, ok := r.Body.(*readBody); ok {
		return b.data, nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = newReadBody(body)
	return body, nil
}

// refuse answers with status and a plain-text reason, and logs the
// refusal (never the token).
func (g *guard) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	g.log.Warn("refused an HTTP request", "status", status, "reason", msg, "remote", r.RemoteAddr)
	http.Error(w, msg, status)
}

// authorized checks the bearer token.
func (g *guard) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), g.token) == 1
}

// hostAllowed accepts loopback names always, and any IP address when
// remote access is allowed: rebinding needs a DNS name, and remote
// clients address the server by its IP address.
func (g *guard) hostAllowed(host string) bool {
	h := hostOnly(host)
	if h == "" {
		return false
	}
	if isLoopback(h) {
		return true
	}
	_, err := netip.ParseAddr(h)
	return g.allowRemote && err == nil
}

// originAllowed accepts only pages served from this machine's loopback
// addresses (a local inspector, say); the token is still required.
func originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return isLoopback(hostOnly(u.Host))
}

// hostOnly strips the port and IPv6 brackets from host[:port].
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
