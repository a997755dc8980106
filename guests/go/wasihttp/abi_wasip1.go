//go:build wasip1

package wasihttp

import "unsafe"

// The component-level functions of wasi:http 0.2.12 and wasi:io 0.2.12 the
// client calls, imported under their canonical core names. Each signature
// is the function's flattened canonical-ABI form: handles and
// discriminants are i32, strings and lists a (pointer, length) pair, and a
// result that flattens to more than one value comes back through a
// return area the caller passes last. The WIT world these belong to is
// embedded at componentize time (guests/go/driver.wit), which turns these
// core imports into component imports.

//go:wasmimport wasi:http/types@0.2.12 [static]fields.from-list
func fieldsFromList(entries unsafe.Pointer, n uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [method]fields.entries
func fieldsEntries(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [resource-drop]fields
func fieldsDrop(self uint32)

//go:wasmimport wasi:http/types@0.2.12 [constructor]outgoing-request
func outRequestNew(headers uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]outgoing-request.set-method
func outRequestSetMethod(self, disc uint32, other unsafe.Pointer, otherLen uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]outgoing-request.set-scheme
func outRequestSetScheme(self, some, disc uint32, other unsafe.Pointer, otherLen uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]outgoing-request.set-authority
func outRequestSetAuthority(self, some uint32, s unsafe.Pointer, sLen uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]outgoing-request.set-path-with-query
func outRequestSetPath(self, some uint32, s unsafe.Pointer, sLen uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]outgoing-request.body
func outRequestBody(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [resource-drop]outgoing-request
func outRequestDrop(self uint32)

//go:wasmimport wasi:http/types@0.2.12 [method]outgoing-body.write
func outBodyWrite(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [static]outgoing-body.finish
func outBodyFinish(this, trailersSome, trailers uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/outgoing-handler@0.2.12 handle
func handle(request, optionsSome, options uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [method]future-incoming-response.subscribe
func futureSubscribe(self uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]future-incoming-response.get
func futureGet(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [resource-drop]future-incoming-response
func futureDrop(self uint32)

//go:wasmimport wasi:http/types@0.2.12 [method]incoming-response.status
func inResponseStatus(self uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]incoming-response.headers
func inResponseHeaders(self uint32) uint32

//go:wasmimport wasi:http/types@0.2.12 [method]incoming-response.consume
func inResponseConsume(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [resource-drop]incoming-response
func inResponseDrop(self uint32)

//go:wasmimport wasi:http/types@0.2.12 [method]incoming-body.stream
func inBodyStream(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:http/types@0.2.12 [resource-drop]incoming-body
func inBodyDrop(self uint32)

//go:wasmimport wasi:io/poll@0.2.12 [method]pollable.block
func pollableBlock(self uint32)

//go:wasmimport wasi:io/poll@0.2.12 [resource-drop]pollable
func pollableDrop(self uint32)

//go:wasmimport wasi:io/streams@0.2.12 [method]output-stream.check-write
func outStreamCheckWrite(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:io/streams@0.2.12 [method]output-stream.write
func outStreamWrite(self uint32, p unsafe.Pointer, n uint32, ret unsafe.Pointer)

//go:wasmimport wasi:io/streams@0.2.12 [method]output-stream.blocking-flush
func outStreamBlockingFlush(self uint32, ret unsafe.Pointer)

//go:wasmimport wasi:io/streams@0.2.12 [method]output-stream.subscribe
func outStreamSubscribe(self uint32) uint32

//go:wasmimport wasi:io/streams@0.2.12 [resource-drop]output-stream
func outStreamDrop(self uint32)

//go:wasmimport wasi:io/streams@0.2.12 [method]input-stream.blocking-read
func inStreamRead(self uint32, n uint64, ret unsafe.Pointer)

//go:wasmimport wasi:io/streams@0.2.12 [resource-drop]input-stream
func inStreamDrop(self uint32)

//go:wasmimport wasi:io/error@0.2.12 [resource-drop]error
func ioErrorDrop(self uint32)
