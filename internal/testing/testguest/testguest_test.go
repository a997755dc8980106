package testguest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// componentPreamble starts every component binary: the wasm magic, then a
// version 0x0d and layer 1 where a core module has version 1, layer 0.
var componentPreamble = []byte{0x00, 'a', 's', 'm', 0x0d, 0x00, 0x01, 0x00}

func TestEveryFixtureIsAComponent(t *testing.T) {
	for _, name := range []string{
		HookLifecycle, HookLifecycleTasks, HookMissing, HookUnversioned, HookSpin,
		DriverCanned, DriverError, DriverMetadata, DriverSwitching, DriverTrap, DriverNoData, ToolHostile,
		ToolrunGo, ToolrunJS,
	} {
		if !filepath.IsAbs(Path(name)) {
			t.Errorf("Path(%q) = %q, want absolute", name, Path(name))
		}
		b := Bytes(t, name)
		if len(b) < len(componentPreamble) || string(b[:len(componentPreamble)]) != string(componentPreamble) {
			t.Errorf("%s does not start with the component preamble", name)
		}
	}
}

// The canned answers are spelled out twice, here and in the WAT sources;
// this keeps the copies equal.
func TestCannedTextsMatchWATSources(t *testing.T) {
	for name, texts := range map[string][]string{
		DriverCanned:    {DriverCannedData},
		DriverError:     {DriverErrorData},
		DriverMetadata:  {DriverMetadataData, DriverMetadataPairs[0][0], DriverMetadataPairs[0][1], DriverMetadataPairs[1][0], DriverMetadataPairs[1][1]},
		DriverSwitching: {DriverSwitchingMarker, DriverSwitchingBefore, DriverSwitchingAfter},
	} {
		src, err := os.ReadFile(filepath.Join(filepath.Dir(Path(name)), "..", "wat", name+".wat"))
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			// WAT data strings escape quotes and backslashes.
			escaped := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text) + `"`
			if !strings.Contains(string(src), escaped) {
				t.Errorf("%s.wat has no data string %s", name, escaped)
			}
		}
	}
}
