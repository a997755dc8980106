package wasip2

import "github.com/mur-go/mur/engine/wit"

// Constructors that keep the WIT definitions below close to their WIT
// spelling. The engine compares imported function types structurally, so
// field, case and flag names must match WASI exactly; type names only help
// error messages.

func field(name string, t wit.Type) wit.Field { return wit.Field{Name: name, Type: t} }

func record(name string, fields ...wit.Field) *wit.Record {
	return &wit.Record{Named: wit.Named{Name: name}, Fields: fields}
}

func enum(name string, cases ...string) *wit.Enum {
	return &wit.Enum{Named: wit.Named{Name: name}, Cases: cases}
}

func flags(name string, names ...string) *wit.Flags {
	return &wit.Flags{Named: wit.Named{Name: name}, Names: names}
}

func tcase(name string, t wit.Type) wit.Case { return wit.Case{Name: name, Type: t} }

func variant(name string, cases ...wit.Case) *wit.Variant {
	return &wit.Variant{Named: wit.Named{Name: name}, Cases: cases}
}

func list(t wit.Type) *wit.List { return &wit.List{Elem: t} }

func option(t wit.Type) *wit.Option { return &wit.Option{Elem: t} }

func result(ok, err wit.Type) *wit.Result { return &wit.Result{OK: ok, Err: err} }

func tuple(ts ...wit.Type) *wit.Tuple { return &wit.Tuple{Types: ts} }

func own(r *wit.ResourceType) *wit.Own { return &wit.Own{Resource: r} }

func borrow(r *wit.ResourceType) *wit.Borrow { return &wit.Borrow{Resource: r} }

func param(name string, t wit.Type) wit.Param { return wit.Param{Name: name, Type: t} }

// fn builds a function type: fn(result, params...); result may be nil.
func fn(res wit.Type, params ...wit.Param) *wit.Func {
	return &wit.Func{Params: params, Result: res}
}

// self is the implicit first parameter of a resource method.
func self(r *wit.ResourceType) wit.Param { return param("self", borrow(r)) }

// types holds every resource type and the compound types shared between
// interfaces. It is built once per Register call and never mutated after,
// so resource identity (what WIT `use` means) holds across interfaces.
type types struct {
	// wasi:io
	ioError, pollable, inputStream, outputStream *wit.ResourceType
	streamError                                  *wit.Variant

	// wasi:clocks
	datetime *wit.Record

	// wasi:cli
	terminalInput, terminalOutput *wit.ResourceType

	// wasi:filesystem
	descriptor, dirStream           *wit.ResourceType
	descType, fsErrorCode, advice   *wit.Enum
	descFlags, pathFlags, openFlags *wit.Flags
	descStat, dirEntry, metaHash    *wit.Record
	newTimestamp                    *wit.Variant

	// wasi:sockets
	network, resolveStream, tcpSocket, udpSocket *wit.ResourceType
	inDatagramStream, outDatagramStream          *wit.ResourceType
	sockErrorCode, ipFamily, shutdownType        *wit.Enum
	ipv4Addr, ipv6Addr                           *wit.Tuple
	ipAddr, ipSockAddr                           *wit.Variant
	inDatagram, outDatagram                      *wit.Record

	// wasi:http
	fields, inRequest, outRequest, reqOptions, respOutparam *wit.ResourceType
	inResponse, inBody, futureTrailers, outResponse         *wit.ResourceType
	outBody, futureInResponse                               *wit.ResourceType
	method, scheme, httpErrorCode, headerError              *wit.Variant
}

func newTypes() *types {
	t := &types{}
	rt := func(name string) *wit.ResourceType { return &wit.ResourceType{Name: name} }

	t.ioError = rt("error")
	t.pollable = rt("pollable")
	t.inputStream = rt("input-stream")
	t.outputStream = rt("output-stream")
	t.streamError = variant("stream-error",
		tcase("last-operation-failed", own(t.ioError)),
		tcase("closed", nil))

	t.datetime = record("datetime", field("seconds", wit.U64), field("nanoseconds", wit.U32))

	t.terminalInput = rt("terminal-input")
	t.terminalOutput = rt("terminal-output")

	t.descriptor = rt("descriptor")
	t.dirStream = rt("directory-entry-stream")
	t.descType = enum("descriptor-type", "unknown", "block-device", "character-device",
		"directory", "fifo", "symbolic-link", "regular-file", "socket")
	t.descFlags = flags("descriptor-flags", "read", "write", "file-integrity-sync",
		"data-integrity-sync", "requested-write-sync", "mutate-directory")
	t.pathFlags = flags("path-flags", "symlink-follow")
	t.openFlags = flags("open-flags", "create", "directory", "exclusive", "truncate")
	optTime := option(t.datetime)
	t.descStat = record("descriptor-stat",
		field("type", t.descType),
		field("link-count", wit.U64),
		field("size", wit.U64),
		field("data-access-timestamp", optTime),
		field("data-modification-timestamp", optTime),
		field("status-change-timestamp", optTime))
	t.newTimestamp = variant("new-timestamp",
		tcase("no-change", nil), tcase("now", nil), tcase("timestamp", t.datetime))
	t.dirEntry = record("directory-entry", field("type", t.descType), field("name", wit.String))
	t.fsErrorCode = enum("error-code", fsErrorNames[:]...)
	t.advice = enum("advice", "normal", "sequential", "random", "will-need", "dont-need", "no-reuse")
	t.metaHash = record("metadata-hash-value", field("lower", wit.U64), field("upper", wit.U64))

	t.network = rt("network")
	t.resolveStream = rt("resolve-address-stream")
	t.tcpSocket = rt("tcp-socket")
	t.udpSocket = rt("udp-socket")
	t.inDatagramStream = rt("incoming-datagram-stream")
	t.outDatagramStream = rt("outgoing-datagram-stream")
	t.sockErrorCode = enum("error-code", sockErrorNames[:]...)
	t.ipFamily = enum("ip-address-family", "ipv4", "ipv6")
	t.shutdownType = enum("shutdown-type", "receive", "send", "both")
	t.ipv4Addr = tuple(wit.U8, wit.U8, wit.U8, wit.U8)
	t.ipv6Addr = tuple(wit.U16, wit.U16, wit.U16, wit.U16, wit.U16, wit.U16, wit.U16, wit.U16)
	t.ipAddr = variant("ip-address", tcase("ipv4", t.ipv4Addr), tcase("ipv6", t.ipv6Addr))
	t.ipSockAddr = variant("ip-socket-address",
		tcase("ipv4", record("ipv4-socket-address", field("port", wit.U16), field("address", t.ipv4Addr))),
		tcase("ipv6", record("ipv6-socket-address", field("port", wit.U16), field("flow-info", wit.U32),
			field("address", t.ipv6Addr), field("scope-id", wit.U32))))
	t.inDatagram = record("incoming-datagram", field("data", list(wit.U8)), field("remote-address", t.ipSockAddr))
	t.outDatagram = record("outgoing-datagram", field("data", list(wit.U8)), field("remote-address", option(t.ipSockAddr)))

	t.fields = rt("fields")
	t.inRequest = rt("incoming-request")
	t.outRequest = rt("outgoing-request")
	t.reqOptions = rt("request-options")
	t.respOutparam = rt("response-outparam")
	t.inResponse = rt("incoming-response")
	t.inBody = rt("incoming-body")
	t.futureTrailers = rt("future-trailers")
	t.outResponse = rt("outgoing-response")
	t.outBody = rt("outgoing-body")
	t.futureInResponse = rt("future-incoming-response")
	t.method = variant("method", tcase("get", nil), tcase("head", nil), tcase("post", nil),
		tcase("put", nil), tcase("delete", nil), tcase("connect", nil), tcase("options", nil),
		tcase("trace", nil), tcase("patch", nil), tcase("other", wit.String))
	t.scheme = variant("scheme", tcase("HTTP", nil), tcase("HTTPS", nil), tcase("other", wit.String))
	t.headerError = variant("header-error", tcase("invalid-syntax", nil), tcase("forbidden", nil), tcase("immutable", nil))
	t.httpErrorCode = newHTTPErrorCode()
	return t
}

// newHTTPErrorCode builds wasi:http/types.error-code; its case order is
// the ABI, see httpErr* constants.
func newHTTPErrorCode() *wit.Variant {
	dnsPayload := record("DNS-error-payload", field("rcode", option(wit.String)), field("info-code", option(wit.U16)))
	tlsPayload := record("TLS-alert-received-payload", field("alert-id", option(wit.U8)), field("alert-message", option(wit.String)))
	fieldSize := record("field-size-payload", field("field-name", option(wit.String)), field("field-size", option(wit.U32)))
	payload := map[string]wit.Type{
		"DNS-error":                          dnsPayload,
		"TLS-alert-received":                 tlsPayload,
		"HTTP-request-body-size":             option(wit.U64),
		"HTTP-request-header-section-size":   option(wit.U32),
		"HTTP-request-header-size":           option(fieldSize),
		"HTTP-request-trailer-section-size":  option(wit.U32),
		"HTTP-request-trailer-size":          fieldSize,
		"HTTP-response-header-section-size":  option(wit.U32),
		"HTTP-response-header-size":          fieldSize,
		"HTTP-response-body-size":            option(wit.U64),
		"HTTP-response-trailer-section-size": option(wit.U32),
		"HTTP-response-trailer-size":         fieldSize,
		"HTTP-response-transfer-coding":      option(wit.String),
		"HTTP-response-content-coding":       option(wit.String),
		"internal-error":                     option(wit.String),
	}
	cases := make([]wit.Case, len(httpErrorNames))
	for i, name := range httpErrorNames {
		cases[i] = tcase(name, payload[name])
	}
	return variant("error-code", cases...)
}
