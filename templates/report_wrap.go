package templates

import (
	"strings"
	"unicode/utf8"
)

// WrapLines breaks text into lines of at most MaxWidth columns (counted in
// characters, not bytes: event texts draw paths with arrows), the first
// starting with first and the others with rest. Words longer than a line
// are left whole. Newlines in text start new paragraphs, each wrapped the
// same way.
func WrapLines(text, first, rest string) []string {
	var out []string
	for i, para := range strings.Split(text, "\n") {
		lead := first
		if i > 0 {
			lead = rest
		}
		line := lead
		empty := true
		for _, w := range strings.Fields(para) {
			if !empty && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > MaxWidth {
				out = append(out, line)
				line, empty = rest, true
			}
			if !empty {
				line += " "
			}
			line += w
			empty = false
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// Wrap is WrapLines for templates: one string, the lines joined; first and
// rest indent the first line and the others.
func Wrap(first, rest, text string) string {
	return strings.Join(WrapLines(text, first, rest), "\n")
}

// ListLines writes items after head, separated by commas, within
// MaxWidth, continuation lines indented under the first item.
func ListLines(head string, items []string) []string {
	if len(items) == 0 {
		return nil
	}
	var out []string
	line := head
	indent := strings.Repeat(" ", len(head))
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		if len(line)+len(it)+1 > MaxWidth && strings.TrimSpace(line) != "" {
			out = append(out, strings.TrimRight(line, " "))
			line = indent
		}
		if line != head && line != indent {
			line += " "
		}
		line += it
	}
	return append(out, line)
}

// Columns lays rows out in columns two spaces apart, each as wide as its
// widest cell, its cells padded on the left in the columns right says
// (nil: none), on the right in the others.
func Columns(rows [][]string, right func(col int) bool) []string {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	out := make([]string, len(rows))
	for k, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if right != nil && right(i) {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		out[k] = strings.TrimRight(b.String(), " ")
	}
	return out
}
