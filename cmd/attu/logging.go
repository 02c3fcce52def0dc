package main

import (
	"fmt"
	"io"
	"log/slog"
	"unicode/utf8"
)

// maxLogValue bounds, in bytes, each value a log line carries. Many come
// from the mail answered (a Message-ID, a subject, an address, an error
// quoting them), which a sender may make as long as the mail's limits
// allow: a 40 KiB Message-ID would otherwise fill two lines of 41 KB.
const maxLogValue = 512

// newLogger is the daemon's logger: text lines to w, at level and above,
// each value cut to maxLogValue bytes (boundedAttr).
func newLogger(w io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: boundedAttr}))
}

// boundedAttr cuts a value longer than maxLogValue bytes, at a character
// boundary, and says how long it was: strings, errors and whatever else
// prints long (a list of addresses).
func boundedAttr(_ []string, a slog.Attr) slog.Attr {
	var s string
	switch v := a.Value; v.Kind() {
	case slog.KindString:
		s = v.String()
	case slog.KindAny:
		s = fmt.Sprint(v.Any())
	default:
		return a
	}
	if len(s) <= maxLogValue {
		return a
	}
	cut := maxLogValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return slog.String(a.Key, fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s)))
}
