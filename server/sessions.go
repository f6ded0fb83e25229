package server

import (
	"container/list"
	"sync"
	"time"
)

// Defaults for HTTPOptions' session bounds.
const (
	// DefaultMaxSessions is the most live 2025-11-25 (or older) HTTP
	// sessions; past it the longest idle one is ended. mcp-go keeps every
	// session it issued until a DELETE, which most clients never send:
	// 10,000 initialize calls grew the server from 37 MB to 157 MB.
	DefaultMaxSessions = 1000
	// DefaultSessionIdle ends a session nobody used for this long.
	DefaultSessionIdle = time.Hour
)

// sessions are the legacy HTTP sessions assent issued and has not ended.
// mcp-go's default session manager checks only an id's form, so any
// well-formed id passed, and a DELETE left the session working; here an
// id is live only from its initialize to its DELETE, its eviction or its
// idle expiry. A session with a request in flight (a call waiting for the
// operator, a GET stream) is never idle.
type sessions struct {
	max  int
	idle time.Duration
	end  func(id string) // makes mcp-go forget a session assent ended

	mu   sync.Mutex
	byID map[string]*session
	lru  list.List // sessions with nothing in flight, most recently used first
}

// session is one live legacy session.
type session struct {
	id     string
	client string    // the name the client gave in initialize
	active int       // requests in flight
	last   time.Time // when the last of them ended
	elem   *list.Element
}

func newSessions(max int, idle time.Duration, end func(id string)) *sessions {
	return &sessions{max: max, idle: idle, end: end, byID: map[string]*session{}}
}

// room reports whether an initialize may add a session: there is room,
// or an idle session to end for it.
func (ss *sessions) room() bool {
	ended := ss.lock()
	defer ss.unlock(ended)
	return len(ss.byID) < ss.max || ss.lru.Len() > 0
}

// add records a session mcp-go just issued to the named client, ending
// the longest idle ones while there are too many.
func (ss *sessions) add(id, client string) {
	ended := ss.lock()
	defer ss.unlock(ended)
	s := &session{id: id, client: client, last: time.Now()}
	s.elem = ss.lru.PushFront(s)
	ss.byID[id] = s
	for len(ss.byID) > ss.max && ss.lru.Len() > 0 {
		*ended = append(*ended, ss.removeLocked(ss.lru.Back().Value.(*session)))
	}
}

// begin marks a request of the session in flight and returns the name
// its client gave; false means assent knows no such session.
func (ss *sessions) begin(id string) (client string, ok bool) {
	ended := ss.lock()
	defer ss.unlock(ended)
	s := ss.byID[id]
	if s == nil {
		return "", false
	}
	if s.active == 0 {
		ss.lru.Remove(s.elem)
		s.elem = nil
	}
	s.active++
	return s.client, true
}

// done ends a request begun with begin.
func (ss *sessions) done(id string) {
	ended := ss.lock()
	defer ss.unlock(ended)
	s := ss.byID[id]
	if s == nil || s.active == 0 {
		return
	}
	if s.active--; s.active == 0 {
		s.last = time.Now()
		s.elem = ss.lru.PushFront(s)
	}
}

// remove ends a session (its client's DELETE); false means it was not live.
func (ss *sessions) remove(id string) bool {
	ended := ss.lock()
	defer ss.unlock(ended)
	s := ss.byID[id]
	if s != nil {
		ss.removeLocked(s)
	}
	return s != nil
}

func (ss *sessions) removeLocked(s *session) string {
	if s.elem != nil {
		ss.lru.Remove(s.elem)
	}
	delete(ss.byID, s.id)
	return s.id
}

// lock takes the lock and expires idle sessions; unlock releases it and
// then tells mcp-go which sessions ended, outside the lock (mcp-go's
// cleanup may take its own locks).
func (ss *sessions) lock() *[]string {
	ss.mu.Lock()
	var ended []string
	for e := ss.lru.Back(); e != nil && time.Since(e.Value.(*session).last) > ss.idle; e = ss.lru.Back() {
		ended = append(ended, ss.removeLocked(e.Value.(*session)))
	}
	return &ended
}

func (ss *sessions) unlock(ended *[]string) {
	ss.mu.Unlock()
	for _, id := range *ended {
		ss.end(id)
	}
}
