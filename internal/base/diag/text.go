package diag

import "strings"

// Text is err's text on one line without "error[CODE]: " prefixes or hint
// lines, for embedding one diagnostic in the message of another.
func Text(err error) string {
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "hint:") {
			continue
		}
		for {
			i := strings.Index(l, "error[")
			j := strings.Index(l, "]: ")
			if i < 0 || j < i {
				break
			}
			l = l[:i] + l[j+3:]
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "; ")
}
