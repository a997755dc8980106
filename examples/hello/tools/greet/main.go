// Command greet is the hello example's native tool: a host program the
// runtime starts once per call, speaking Murmur's native-tool protocol.
//
// stdin:  one JSON object {"data": string|null, "log_path": string|null}
// stdout: one JSON object {"status": "passed"|"failed"|"error",
//
//	"summary": string, "data": string}
//
// data is the name to greet (trimmed; blank or null greets "world").
// log_path is accepted and ignored. The answer's data is a JSON text with
// the greeting, the platform the binary runs on and the last element of
// its HOME, which under mur run is the capsule's synthetic .capsule-home.
// Input that is not such an object gives status "error" and exit status 1.
package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

type input struct {
	Data    *string `json:"data"`
	LogPath *string `json:"log_path"`
}

type output struct {
	Status  string `json:"status"`
	Summary string `json:"summary"`
	Data    string `json:"data,omitempty"`
}

// details is the JSON text in a passed answer's data.
type details struct {
	Greeting string `json:"greeting"`
	Platform string `json:"platform"`
	Home     string `json:"home"`
}

func main() {
	out, code := greet(os.Stdin, os.Getenv("HOME"))
	b, _ := json.Marshal(out)
	os.Stdout.Write(append(b, '\n'))
	os.Exit(code)
}

// greet answers one call: the output object and the exit status.
func greet(stdin io.Reader, home string) (output, int) {
	raw, err := io.ReadAll(stdin)
	if err != nil {
		return output{Status: "error", Summary: "reading stdin: " + err.Error()}, 1
	}
	var in input
	if err := json.Unmarshal(raw, &in); err != nil {
		return output{Status: "error",
			Summary: `stdin must be a JSON object {"data":…,"log_path":…}: ` + err.Error()}, 1
	}
	name := "world"
	if in.Data != nil && strings.TrimSpace(*in.Data) != "" {
		name = strings.TrimSpace(*in.Data)
	}
	greeting := "Hello, " + name + "!"
	d := details{
		Greeting: greeting,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if home != "" {
		d.Home = filepath.Base(home)
	}
	data, _ := json.Marshal(d)
	return output{Status: "passed", Summary: greeting, Data: string(data)}, 0
}
