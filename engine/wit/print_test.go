package wit

import "testing"

// toolRun is murmur:tool/run@0.2.0 as the engine resolves it.
func toolRun() (run *Func, types []Extern) {
	status := &Enum{Named{"status"}, []string{"passed", "failed", "error"}}
	input := &Record{Named{"tool-input"}, []Field{
		{"data", &Option{Elem: String}},
		{"log-path", &Option{Elem: String}},
	}}
	attachment := &Record{Named{"attachment"}, []Field{
		{"media-type", String},
		{"path", String},
	}}
	result := &Record{Named{"tool-result"}, []Field{
		{"status", status},
		{"summary", &Option{Elem: String}},
		{"data", &Option{Elem: String}},
		{"data-path", &Option{Elem: String}},
		{"truncated", Bool},
		{"metadata", &List{Elem: &Tuple{Types: []Type{String, String}}}},
		{"attachments", &List{Elem: attachment}},
	}}
	run = &Func{Params: []Param{{"input", input}}, Result: result}
	for _, t := range []Type{status, input, attachment, result} {
		types = append(types, Extern{Name: NameOf(t), Kind: ExternType, Type: t})
	}
	return run, types
}

func TestPrintToolWorld(t *testing.T) {
	run, types := toolRun()
	env := &List{Elem: &Tuple{Types: []Type{String, String}}}
	w := &World{
		Imports: []Extern{{
			Name: "wasi:cli/environment@0.2.0", Kind: ExternInstance,
			Exports: []Extern{{Name: "get-environment", Kind: ExternFunc, Func: &Func{Result: env}}},
		}},
		Exports: []Extern{{
			Name: "murmur:tool/run@0.2.0", Kind: ExternInstance,
			Exports: append(types, Extern{Name: "run", Kind: ExternFunc, Func: run}),
		}},
	}
	want := `world root {
  import wasi:cli/environment@0.2.0: interface {
    get-environment: func() -> list<tuple<string, string>>;
  }

  export murmur:tool/run@0.2.0: interface {
    enum status {
      passed,
      failed,
      error,
    }

    record tool-input {
      data: option<string>,
      log-path: option<string>,
    }

    record attachment {
      media-type: string,
      path: string,
    }

    record tool-result {
      status: status,
      summary: option<string>,
      data: option<string>,
      data-path: option<string>,
      truncated: bool,
      metadata: list<tuple<string, string>>,
      attachments: list<attachment>,
    }

    run: func(input: tool-input) -> tool-result;
  }
}
`
	if got := Print(w); got != want {
		t.Errorf("Print:\n%s\nwant:\n%s", got, want)
	}
}

func TestPrintResourcesAndUse(t *testing.T) {
	errRes := &ResourceType{Name: "error"}
	stream := &ResourceType{Name: "output-stream"}
	streamErr := &Variant{Named{"stream-error"}, []Case{
		{"last-operation-failed", &Own{Resource: errRes}},
		{"closed", nil},
	}}
	w := &World{Imports: []Extern{
		{Name: "wasi:io/error@0.2.0", Kind: ExternInstance, Exports: []Extern{
			{Name: "error", Kind: ExternResource, Resource: errRes},
			{Name: "[method]error.to-debug-string", Kind: ExternFunc, Func: &Func{
				Params: []Param{{"self", &Borrow{Resource: errRes}}}, Result: String,
			}},
		}},
		{Name: "wasi:io/streams@0.2.0", Kind: ExternInstance, Exports: []Extern{
			{Name: "error", Kind: ExternResource, Resource: errRes},
			{Name: "stream-error", Kind: ExternType, Type: streamErr},
			{Name: "output-stream", Kind: ExternResource, Resource: stream},
			{Name: "[constructor]output-stream", Kind: ExternFunc, Func: &Func{Result: &Own{Resource: stream}}},
			{Name: "[method]output-stream.write", Kind: ExternFunc, Func: &Func{
				Params: []Param{{"self", &Borrow{Resource: stream}}, {"contents", &List{Elem: U8}}},
				Result: &Result{Err: streamErr},
			}},
			{Name: "[static]output-stream.pair", Kind: ExternFunc, Func: &Func{
				Result: &Tuple{Types: []Type{&Own{Resource: stream}, &Own{Resource: stream}}},
			}},
		}},
	}}
	want := `world root {
  import wasi:io/error@0.2.0: interface {
    resource error {
      to-debug-string: func() -> string;
    }
  }

  import wasi:io/streams@0.2.0: interface {
    use wasi:io/error@0.2.0.{error};

    variant stream-error {
      last-operation-failed(error),
      closed,
    }

    resource output-stream {
      constructor();
      write: func(contents: list<u8>) -> result<_, stream-error>;
      pair: static func() -> tuple<output-stream, output-stream>;
    }
  }
}
`
	if got := Print(w); got != want {
		t.Errorf("Print:\n%s\nwant:\n%s", got, want)
	}
}

func TestPrintRootItems(t *testing.T) {
	point := &Record{Named{"point"}, []Field{{"x", S32}, {"y", S32}}}
	perms := &Flags{Named{"perms"}, []string{"read", "write"}}
	w := &World{
		Imports: []Extern{
			{Name: "point", Kind: ExternType, Type: point},
			{Name: "coord", Kind: ExternType, Type: point},
			{Name: "size", Kind: ExternType, Type: U64},
			{Name: "bytes", Kind: ExternType, Type: &List{Named{"bytes"}, U8}},
			{Name: "log", Kind: ExternFunc, Func: &Func{Params: []Param{{"msg", String}}}},
			{Name: "plugin", Kind: ExternComponent},
		},
		Exports: []Extern{
			{Name: "perms", Kind: ExternType, Type: perms},
			{Name: "point", Kind: ExternType, Type: point},
			{Name: "move", Kind: ExternFunc, Func: &Func{
				Params: []Param{{"from", point}, {"type", perms}, {"by", &Option{Elem: &Option{Elem: F64}}}},
				Result: &Result{OK: point, Err: String},
			}},
			{Name: "list", Kind: ExternFunc, Func: &Func{Result: &Result{}}},
		},
	}
	want := `world root {
  record point {
    x: s32,
    y: s32,
  }

  type coord = point;
  type size = u64;
  type bytes = list<u8>;

  flags perms {
    read,
    write,
  }

  import log: func(msg: string);
  // import plugin: component (not expressible in WIT)

  export move: func(%from: point, %type: perms, by: option<option<f64>>) -> result<point, string>;
  export %list: func() -> result;
}
`
	if got := Print(w); got != want {
		t.Errorf("Print:\n%s\nwant:\n%s", got, want)
	}
}

func TestPrintEmpty(t *testing.T) {
	for _, w := range []*World{nil, {}} {
		if got, want := Print(w), "world root {\n}\n"; got != want {
			t.Errorf("Print(%v) = %q, want %q", w, got, want)
		}
	}
	w := &World{Exports: []Extern{{Name: "a:b/c", Kind: ExternInstance}}}
	if got, want := Print(w), "world root {\n  export a:b/c: interface {}\n}\n"; got != want {
		t.Errorf("Print = %q, want %q", got, want)
	}
}

func TestTypeString(t *testing.T) {
	res := &ResourceType{Name: "file"}
	for _, tc := range []struct {
		t    Type
		want string
	}{
		{U8, "u8"},
		{Char, "char"},
		{&List{Named{"bytes"}, U8}, "bytes"},
		{&Result{OK: U32}, "result<u32>"},
		{&Result{Err: U32}, "result<_, u32>"},
		{&Own{Resource: res}, "file"},
		{&Borrow{Resource: res}, "borrow<file>"},
		{&Record{Fields: []Field{{"a", U32}, {"b", &Enum{Cases: []string{"x", "y"}}}}}, "record { a: u32, b: enum { x, y } }"},
		{&Variant{Cases: []Case{{"none", nil}, {"some", S8}}}, "variant { none, some(s8) }"},
		{&Flags{Names: []string{"own"}}, "flags { %own }"},
		{&Record{}, "record {}"},
		{&FixedList{Elem: U8, Len: 4}, "list<u8, 4>"},
		{&Map{Key: String, Value: &List{Elem: U32}}, "map<string, list<u32>>"},
		{&Map{Named{"env"}, String, String}, "env"},
		{nil, "_"},
	} {
		if got := TypeString(tc.t); got != tc.want {
			t.Errorf("TypeString(%#v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestFuncString(t *testing.T) {
	f := &Func{Params: []Param{{"a", U32}, {"b", &List{Elem: String}}}, Result: &Option{Elem: Char}}
	if got, want := FuncString(f), "func(a: u32, b: list<string>) -> option<char>"; got != want {
		t.Errorf("FuncString = %q, want %q", got, want)
	}
	if got, want := FuncString(&Func{}), "func()"; got != want {
		t.Errorf("FuncString = %q, want %q", got, want)
	}
}
