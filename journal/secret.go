package journal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
)

// masker replaces secret values with tokens derived from a keyed hash. The
// token is the same for the same secret under the same key, so one secret can
// be followed across records, but without the key the value cannot be found
// from it by guessing, as it could from a plain hash of a short password.
type masker struct {
	r       *strings.Replacer
	secrets []string          // longest first
	tokens  map[string]string // secret → token
}

// secretToken is the masked form of one secret: a prefix of
// HMAC-SHA256(key, value), in brackets no shell or tool would print.
func secretToken(key []byte, value string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(value))
	return secretPrefix + hex.EncodeToString(mac.Sum(nil)[:4]) + "›"
}

// secretPrefix starts every masked token.
const secretPrefix = "‹secret:"

// Masked reports whether any string in v (a record's arguments, as Read
// returns them) holds a masked secret, so the original value is gone.
func Masked(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, secretPrefix)
	case []any:
		for _, e := range x {
			if Masked(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, secretPrefix) || Masked(e) {
				return true
			}
		}
	}
	return false
}

// newMasker returns a masker for the non-empty secrets, or nil when there
// are none, so a secret-free record does no masking work at all.
func newMasker(key []byte, secrets []string) *masker {
	m := &masker{tokens: make(map[string]string, len(secrets))}
	for _, s := range secrets {
		if s == "" || m.tokens[s] != "" {
			continue
		}
		m.tokens[s] = secretToken(key, s)
		m.secrets = append(m.secrets, s)
	}
	if len(m.secrets) == 0 {
		return nil
	}
	// strings.Replacer tries pairs in argument order at each position, so
	// longest first makes a secret that contains another masked whole.
	sort.Slice(m.secrets, func(i, j int) bool {
		if len(m.secrets[i]) != len(m.secrets[j]) {
			return len(m.secrets[i]) > len(m.secrets[j])
		}
		return m.secrets[i] < m.secrets[j]
	})
	pairs := make([]string, 0, 2*len(m.secrets))
	for _, s := range m.secrets {
		pairs = append(pairs, s, m.tokens[s])
	}
	m.r = strings.NewReplacer(pairs...)
	return m
}

// mask replaces every occurrence of every secret in s.
func (m *masker) mask(s string) string { return m.r.Replace(s) }

// maskTail replaces the longest proper prefix of a secret that s ends with.
// It is for text cut short before the journal saw it, where the cut may
// have left the first bytes of a secret; masking a few innocent trailing
// bytes of cut output is the price of never storing them.
func (m *masker) maskTail(s string) string {
	best, token := 0, ""
	for _, sec := range m.secrets {
		for k := len(sec) - 1; k > best; k-- {
			if strings.HasSuffix(s, sec[:k]) {
				best, token = k, m.tokens[sec]
				break
			}
		}
	}
	if best == 0 {
		return s
	}
	return s[:len(s)-best] + token
}

// record returns a copy of r with its free text masked: the reason and the
// error (output is masked as it is stored, see Blob.store). The command and
// the arguments are the caller's to mask, by position: only the words a
// secret parameter filled are a secret's, and a value the agent merely
// repeated elsewhere must stay readable (Journal.Token gives the token to
// put there). Ids, names and enumerations are left alone.
func (m *masker) record(r Record) Record {
	r.Reason = m.mask(r.Reason)
	r.Error = m.mask(r.Error)
	return r
}
