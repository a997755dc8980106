package anthropic

import "github.com/mur-go/mur/guests/go/driverkit"

// Samples are Messages API answers to driverkit.WarmRequest, for
// driverkit.Warm: thinking, text, a tool call and usage, whole and
// streamed.
var Samples = driverkit.Samples{
	Whole: `{"id":"msg_warm","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"sig"},` +
		`{"type":"text","text":"ok"},{"type":"tool_use","id":"c2","name":"look","input":{"q":"y"}}],"stop_reason":"tool_use",` +
		`"usage":{"input_tokens":12,"output_tokens":8,"cache_read_input_tokens":5,"cache_creation_input_tokens":2}}`,
	Events: "event: message_start\n" + `data: {"type":"message_start","message":{"id":"msg_warm","type":"message","role":"assistant","content":[],"usage":{"input_tokens":30,"output_tokens":1,"cache_read_input_tokens":4}}}` + "\n\n" +
		"event: content_block_start\n" + `data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}` + "\n\n" +
		"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}` + "\n\n" +
		"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}` + "\n\n" +
		"event: content_block_stop\n" + `data: {"type":"content_block_stop","index":0}` + "\n\n" +
		"event: content_block_start\n" + `data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}` + "\n\n" +
		"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"ok"}}` + "\n\n" +
		"event: content_block_stop\n" + `data: {"type":"content_block_stop","index":1}` + "\n\n" +
		"event: content_block_start\n" + `data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"c2","name":"look","input":{}}}` + "\n\n" +
		"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"q\""}}` + "\n\n" +
		"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":":\"y\"}"}}` + "\n\n" +
		"event: content_block_stop\n" + `data: {"type":"content_block_stop","index":2}` + "\n\n" +
		"event: message_delta\n" + `data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":15}}` + "\n\n" +
		"event: message_stop\n" + `data: {"type":"message_stop"}` + "\n\n",
}
