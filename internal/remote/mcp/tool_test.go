package mcp

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the model reads of an answer: text as it is, other content
// described (never its bytes), the structured content when there is
// nothing else.
func TestResultText(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *sdk.CallToolResult
		want string
	}{
		{"text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}}, "a\nb"},
		{"image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: []byte("xyz")}}}, "[image: image/png, 3 bytes]"},
		{"audio", &sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("x")}}}, "[audio: audio/wav, 1 bytes]"},
		{"link", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{Name: "n", URI: "file:///x"}}}, "[resource link: n file:///x]"},
		{"embedded text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "u", Text: "body"}}}}, "body"},
		{"embedded blob", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "u", MIMEType: "application/gzip", Blob: []byte("zz")}}}}, "[resource: u, application/gzip, 2 bytes]"},
		{"structured only", &sdk.CallToolResult{StructuredContent: map[string]any{"sum": 3}}, `{"sum":3}`},
		{"nothing", &sdk.CallToolResult{}, ""},
	} {
		if got := resultText(tc.res); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
