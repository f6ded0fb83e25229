package main

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// shim is the loopback proxy the suite talks to: the suite cannot send a
// bearer token, so the shim adds assent's and forwards everything else as
// it came, Host and Origin included, so that the suite's DNS-rebinding
// scenario still tests assent's own checks. Responses stream through
// unbuffered (progress arrives as server-sent events).
func shim(target *url.URL, token string) (*http.Server, net.Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.URL.Path = target.Path
			r.Out.Host = r.In.Host // SetURL would put the target's
			r.Out.Header.Set("Authorization", "Bearer "+token)
		},
		FlushInterval: -1,
	}
	srv := &http.Server{Handler: rp, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return srv, ln, nil
}
