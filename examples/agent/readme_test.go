package agentexample

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeSaysWhatARunPrints holds README.md's account of `mur run` to a
// real run's output: each line of its output block, in order ("…" stands
// for what differs between runs; the containment line is this host's, so
// it is held to a host that achieves what the README shows), and every
// W-SEC warning the run printed is one the README names.
func readmeSaysWhatARunPrints(t *testing.T, stdout, stderr string) {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, block, ok := strings.Cut(readme, "The output (a failed run says `status:  failed` and exits 1):\n\n")
	if !ok {
		t.Fatal("README.md has no output block")
	}
	block, _, _ = strings.Cut(block, "\n\n")
	lines := strings.Split(stdout, "\n")
	at := 0
	for _, want := range strings.Split(block, "\n") {
		// The test runs a copy of the example elsewhere.
		want = strings.ReplaceAll(strings.TrimPrefix(want, "    "), "…/examples/agent/", "…/")
		re := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(want), "…", ".*") + "$")
		for ; at < len(lines) && !re.MatchString(lines[at]); at++ {
			if strings.HasPrefix(want, "containment: ") && strings.HasPrefix(lines[at], "containment: ") &&
				!strings.Contains(lines[at], "tier KernelFull") {
				break // another host: the line says what it holds
			}
		}
		if at == len(lines) {
			t.Errorf("README.md shows %q, which the run did not print (in this order):\n%s", want, stdout)
			return
		}
		at++
	}
	for _, code := range regexp.MustCompile(`W-SEC-\d+`).FindAllString(stderr, -1) {
		if !strings.Contains(readme, "`"+code+"`") {
			t.Errorf("the run warned %s, which README.md does not name:\n%s", code, stderr)
		}
	}
}
