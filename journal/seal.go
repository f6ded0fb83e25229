package journal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// A seal's MAC is HMAC-SHA-256, under the seal key (key.go), of
//
//	"seal", segment, seq, prev, event, then call and state of each open call
//
// each field written as its decimal length, ':' and its bytes, so that no two
// lists of fields give the same input. seq is the seal's own and prev the
// hash of the record before it: the MAC vouches for the chain up to the seal,
// and the hash chain carries that to every record before. The segment is in
// it so a seal cannot be moved to another segment, the event so a periodic
// seal cannot be passed off as a closing one, and the open calls so recovery
// can trust the list it starts from.
//
// A head file's MAC is the same construction over "head", segment, part,
// seq, hash and closed.

// macOf computes the MAC of the fields under key.
func macOf(key []byte, fields ...string) string {
	m := hmac.New(sha256.New, key)
	var n [20]byte
	for _, f := range fields {
		m.Write(strconv.AppendInt(n[:0], int64(len(f)), 10))
		m.Write([]byte{':'})
		m.Write([]byte(f))
	}
	return hex.EncodeToString(m.Sum(nil))
}

// sealMAC is the MAC a seal record of segment must carry.
func sealMAC(key []byte, segment string, r *Record) string {
	fields := make([]string, 0, 5+2*len(r.Open))
	fields = append(fields, "seal", segment, strconv.FormatInt(r.Seq, 10), r.Prev, string(r.Event))
	for _, o := range r.Open {
		fields = append(fields, o.Call, string(o.State))
	}
	return macOf(key, fields...)
}

// sealHolds reports whether r's MAC is the one key gives it in segment.
func sealHolds(key []byte, segment string, r *Record) bool {
	want := sealMAC(key, segment, r)
	return hmac.Equal([]byte(want), []byte(r.Seal))
}

// sealOf reports whether a seal line holds: its own hash and its MAC.
func sealOf(h head, line []byte, segment string, key []byte) bool {
	stated, actual, ok := lineHashes(line)
	r := Record{Seq: h.Seq, Prev: h.Prev, Event: h.Event, Open: h.Open, Seal: h.Seal}
	return ok && stated == actual && sealHolds(key, segment, &r)
}
