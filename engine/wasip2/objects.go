package wasip2

import (
	"reflect"

	"github.com/mur-go/mur/engine/wit"
)

// objectTypes is the Go type of the host object behind each resource's
// handles: what a borrow or own parameter of that resource is received as
// and what an own result is made from (bind.go).
func objectTypes(t *types) map[*wit.ResourceType]reflect.Type {
	return map[*wit.ResourceType]reflect.Type{
		t.ioError:      reflect.TypeFor[*ioError](),
		t.pollable:     reflect.TypeFor[*pollable](),
		t.inputStream:  reflect.TypeFor[*inputStream](),
		t.outputStream: reflect.TypeFor[*outputStream](),

		t.terminalInput:  reflect.TypeFor[*terminalInput](),
		t.terminalOutput: reflect.TypeFor[*terminalOutput](),

		t.descriptor: reflect.TypeFor[*descriptor](),
		t.dirStream:  reflect.TypeFor[*dirStream](),

		t.network:           reflect.TypeFor[*network](),
		t.resolveStream:     reflect.TypeFor[*resolveStream](),
		t.tcpSocket:         reflect.TypeFor[*tcpSocket](),
		t.udpSocket:         reflect.TypeFor[*udpSocket](),
		t.inDatagramStream:  reflect.TypeFor[*inDatagramStream](),
		t.outDatagramStream: reflect.TypeFor[*outDatagramStream](),

		t.fields:           reflect.TypeFor[*fields](),
		t.inRequest:        reflect.TypeFor[*inRequest](),
		t.outRequest:       reflect.TypeFor[*outRequest](),
		t.reqOptions:       reflect.TypeFor[*reqOptions](),
		t.respOutparam:     reflect.TypeFor[*respOutparam](),
		t.inResponse:       reflect.TypeFor[*inResponse](),
		t.inBody:           reflect.TypeFor[*inBody](),
		t.futureTrailers:   reflect.TypeFor[*futureTrailers](),
		t.outResponse:      reflect.TypeFor[*outResponse](),
		t.outBody:          reflect.TypeFor[*outBody](),
		t.futureInResponse: reflect.TypeFor[*futureResponse](),
	}
}

// Host objects of resources this host never hands out: there is never a
// terminal, no socket is granted, and no incoming request is served. No
// guest can hold one of their handles, so only their types exist, for the
// signatures that name them.
type (
	terminalInput     struct{}
	terminalOutput    struct{}
	resolveStream     struct{}
	tcpSocket         struct{}
	udpSocket         struct{}
	inDatagramStream  struct{}
	outDatagramStream struct{}
	inRequest         struct{}
	respOutparam      struct{}
	outResponse       struct{}
)
