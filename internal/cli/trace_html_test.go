package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// chromium runs Debian's chromium headless with args and returns its
// stdout. It runs with a profile and HOME of its own, nothing of the
// user's; as root it needs --no-sandbox.
func chromium(t *testing.T, args ...string) []byte {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("this test draws the page in a real browser: install Debian's chromium (apt-get install chromium; .ci/run installs it): %v", err)
	}
	home := t.TempDir()
	base := []string{"--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars", "--force-device-scale-factor=1",
		"--user-data-dir=" + filepath.Join(home, "profile")}
	if os.Geteuid() == 0 {
		base = append(base, "--no-sandbox")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "DBUS_SESSION_BUS_ADDRESS=disabled:",
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// The page of a real run, opened in a real browser, shows the run: the
// timeline's bars in the colours of their kinds, one under the other in
// the order the steps ran and further right as time goes on, the names
// of the turns and tools, the transcript with a hostile tool output
// shown as text; and the browser loads nothing for it, though that
// output names a server that counts every request.
func TestTraceHTMLInABrowser(t *testing.T) {
	var hits atomic.Int32
	canary := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer canary.Close()
	hostile := fmt.Sprintf(`</script><img src=%[1]s/img onerror=this.id=1><link rel=stylesheet href=%[1]s/css><iframe src=%[1]s/frame></iframe>`, canary.URL)
	dir := tracedRun(t, hostile)
	page := filepath.Join(t.TempDir(), "run.html")
	stdout, stderr, code := murIn(t, dir, "trace", "html", "-o", page)
	if code != exitOK || stdout != "wrote "+page+"\n" {
		t.Fatalf("mur trace html: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	url := "file://" + page

	// What the browser built of the page.
	doc, err := html.Parse(bytes.NewReader(chromium(t, "--dump-dom", url)))
	if err != nil {
		t.Fatal(err)
	}
	var bars, texts []string
	for n := range doc.Descendants() {
		switch n.Type {
		case html.ElementNode:
			switch n.Data {
			case "img", "script", "iframe", "link", "object", "embed", "a", "base", "svg":
				t.Errorf("the browser made a <%s> of the page", n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") || strings.Contains(a.Val, "http:") || strings.Contains(a.Val, "https:") {
					t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
				}
				if a.Key == "class" && strings.HasPrefix(a.Val, "bar ") {
					bars = append(bars, strings.TrimPrefix(a.Val, "bar "))
				}
			}
		case html.TextNode:
			texts = append(texts, n.Data)
		}
	}
	want := []string{"model", "shell", "shell", "model"}
	if !slices.Equal(bars, want) {
		t.Errorf("the timeline's bars are %q, want %q", bars, want)
	}
	all := strings.Join(texts, "")
	for _, w := range []string{"capsule traced", "turn 1 · model scripted-model", "turn 1 · shell echo", "turn 1 · shell ls",
		"turn 2 · model scripted-model", "Tokens per turn", "what is here?", "I'll look.", "$ " + hostile, "transcript.jsonl", "the answer"} {
		if !strings.Contains(all, w) {
			t.Errorf("the page does not show %q", w)
		}
	}

	// What the browser drew.
	shot := filepath.Join(t.TempDir(), "shot.png")
	chromium(t, "--screenshot="+shot, "--window-size=1200,1600", url)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	checkDrawn(t, img, want)
	if n := hits.Load(); n != 0 {
		t.Errorf("the browser made %d requests for the page", n)
	}
}

// barColours are the timeline's colours (page.css), as the browser draws
// them.
var barColours = map[string]color.RGBA{
	"model": {0x25, 0x63, 0xeb, 0xff}, "tool": {0x16, 0xa3, 0x4a, 0xff}, "shell": {0xea, 0x58, 0x0c, 0xff},
	"hook": {0x93, 0x33, 0xea, 0xff}, "compaction": {0x6b, 0x72, 0x80, 0xff},
}

// box is a connected region of one colour.
type box struct {
	kind                   string
	minX, minY, maxX, maxY int
}

// checkDrawn checks the screenshot: not blank, and the timeline's bars,
// 14 pixels tall (the legend's and the transcript's keys are 12), drawn
// in the kinds' colours in the order of want, each on a row below the
// last and starting no further left, inside the bars' track.
func checkDrawn(t *testing.T, img image.Image, want []string) {
	t.Helper()
	b := img.Bounds()
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r>>8 < 0xf0 || g>>8 < 0xf0 || bl>>8 < 0xf0 {
				ink++
			}
		}
	}
	if ink < b.Dx()*b.Dy()/50 {
		t.Fatalf("the page looks blank: %d of %d pixels drawn", ink, b.Dx()*b.Dy())
	}
	var bars []box
	for kind, c := range barColours {
		for _, bx := range regions(img, c) {
			if h := bx.maxY - bx.minY + 1; h >= 13 && h <= 15 {
				bx.kind = kind
				bars = append(bars, bx)
			}
		}
	}
	slices.SortFunc(bars, func(a, b box) int { return a.minY - b.minY })
	var kinds []string
	for _, bx := range bars {
		kinds = append(kinds, bx.kind)
	}
	if !slices.Equal(kinds, want) {
		t.Fatalf("bars drawn, top to bottom: %q (%v), want %q", kinds, bars, want)
	}
	for i, bx := range bars {
		// The track runs from the 280-pixel labels to the 110-pixel
		// durations, inside the body's 32-pixel margins.
		if bx.minX < 32+280 || bx.maxX > b.Dx()-32-110 {
			t.Errorf("bar %d (%s) at x %d–%d lies outside the track", i, bx.kind, bx.minX, bx.maxX)
		}
		if i > 0 && (bx.minY <= bars[i-1].maxY || bx.minX < bars[i-1].minX) {
			t.Errorf("bar %d (%s) at %v is not on a row below bar %d at %v, starting no further left", i, bx.kind, bx, i-1, bars[i-1])
		}
	}
}

// regions are the bounding boxes of the 4-connected regions of colour c.
func regions(img image.Image, c color.RGBA) []box {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	seen := make([]bool, w*h)
	is := func(x, y int) bool {
		r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		return uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B && uint8(a>>8) == c.A
	}
	var out []box
	for y := range h {
		for x := range w {
			if seen[y*w+x] || !is(x, y) {
				continue
			}
			bx := box{minX: x, minY: y, maxX: x, maxY: y}
			stack := [][2]int{{x, y}}
			seen[y*w+x] = true
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				bx.minX, bx.maxX = min(bx.minX, p[0]), max(bx.maxX, p[0])
				bx.minY, bx.maxY = min(bx.minY, p[1]), max(bx.maxY, p[1])
				for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					nx, ny := p[0]+d[0], p[1]+d[1]
					if nx >= 0 && ny >= 0 && nx < w && ny < h && !seen[ny*w+nx] && is(nx, ny) {
						seen[ny*w+nx] = true
						stack = append(stack, [2]int{nx, ny})
					}
				}
			}
			out = append(out, bx)
		}
	}
	return out
}

// mur trace html writes the page to -o FILE, to stdout with -o -, and by
// default to <session id>.html here; a directory as -o is refused and
// nothing is written.
func TestTraceHTMLOutput(t *testing.T) {
	dir := tracedRun(t, "hi")
	sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*"))
	if len(sessions) != 1 {
		t.Fatalf("sessions %v", sessions)
	}
	id := filepath.Base(sessions[0])
	stdout, stderr, code := murIn(t, dir, "trace", "html", "-o", "-")
	if code != exitOK || !strings.HasPrefix(stdout, "<!DOCTYPE html>") || !strings.HasSuffix(stdout, "</html>\n") || stderr != "" {
		t.Errorf("-o -: exit %d, stderr %s, stdout starting %.40q", code, stderr, stdout)
	}
	stdout, _, code = murIn(t, dir, "trace", "html")
	b, err := os.ReadFile(filepath.Join(dir, id+".html"))
	if code != exitOK || stdout != "wrote "+id+".html\n" || err != nil || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Errorf("default: exit %d, stdout %q, %v", code, stdout, err)
	}
	out := t.TempDir()
	_, stderr, code = murIn(t, dir, "trace", "html", "-o", out)
	if ents, _ := os.ReadDir(out); code != exitFailure || !strings.Contains(stderr, "is a directory; name a file") || len(ents) != 0 {
		t.Errorf("-o DIR: exit %d, stderr %s, wrote %v", code, stderr, ents)
	}
}
