package openai

import "github.com/mur-go/mur/guests/go/driverkit"

// Samples are Chat Completions answers to driverkit.WarmRequest, for
// driverkit.Warm: text, a tool call and usage, whole and streamed.
var Samples = driverkit.Samples{
	Whole: `{"id":"chatcmpl-warm","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ok",` +
		`"tool_calls":[{"id":"c2","type":"function","function":{"name":"look","arguments":"{\"q\":\"y\"}"}}]},"finish_reason":"tool_calls"}],` +
		`"usage":{"prompt_tokens":11,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":3}}}`,
	Events: `data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"hmm"},"finish_reason":null}]}` + "\n\n" +
		`data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":null}]}` + "\n\n" +
		`data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c2","type":"function","function":{"name":"look","arguments":"{\"q\""}}]},"finish_reason":null}]}` + "\n\n" +
		`data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":\"y\"}"}}]},"finish_reason":null}]}` + "\n\n" +
		`data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" +
		`data: {"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":21,"completion_tokens":9}}` + "\n\n" +
		"data: [DONE]\n\n",
}
