package manifest

import (
	"bytes"
	"fmt"
)

// tabIndentedLine returns the first line (1-based) at or before upTo (0:
// anywhere) whose indentation holds a tab, 0 if none. YAML forbids tabs
// there, and the parser's own message ("found character that cannot start
// any token") does not say so.
func tabIndentedLine(data []byte, upTo int) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		if upTo > 0 && i+1 > upTo {
			break
		}
		indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if bytes.IndexByte(indent, '\t') >= 0 {
			return i + 1
		}
	}
	return 0
}

// tabHint is the hint for a syntax error that a tab indentation explains.
func tabHint(line int) string {
	return fmt.Sprintf("line %d is indented with a tab; YAML indentation must use spaces", line)
}
