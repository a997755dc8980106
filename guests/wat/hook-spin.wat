;; hook-spin: exports murmur:hook/lifecycle@0.2.0 whose six required functions
;; all have the real on-session-start type,
;;   func(ctx: session-context) -> result<hook-output, string>,
;; and spin forever (`loop br`) before touching anything, so only an epoch /
;; fuel style deadline ends the call. It never writes its result area.
;;
;; The core function takes the 10 flat i32s session-context lowers to (four
;; strings and one list<string>, two i32 each) and returns an i32 result
;; pointer, since the result exceeds one flat value. The instance re-exports
;; every named type the signature references: the component model rejects the
;; instance otherwise.
(component
  (core module $m
    (memory (export "memory") 1)
    (func (export "realloc") (param i32 i32 i32 i32) (result i32) i32.const 8)
    (func (export "spin")
      (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32) (result i32)
      (loop $l (br $l))
      unreachable)
  )
  (core instance $i (instantiate $m))
  (alias core export $i "memory" (core memory $mem))
  (alias core export $i "realloc" (core func $realloc))

  (type $message (record (field "role" string) (field "content" string)))
  (type $tool-manifest (record (field "binary-name" string) (field "content" string)))
  (type $hook-output (variant
    (case "none")
    (case "replace-context" (list $message))
    (case "write-manifests" (list $tool-manifest))
    (case "artifact" string)))
  (type $session-context (record
    (field "capsule-name" string)
    (field "capsule-version" string)
    (field "session-id" string)
    (field "model" string)
    (field "capabilities" (list string))))
  (type $ft (func (param "ctx" $session-context) (result (result $hook-output (error string)))))

  (func $f (type $ft)
    (canon lift (core func $i "spin")
      (memory $mem) (realloc $realloc) string-encoding=utf8))

  (instance $lc
    (export "message" (type $message))
    (export "tool-manifest" (type $tool-manifest))
    (export "hook-output" (type $hook-output))
    (export "session-context" (type $session-context))
    (export "on-session-start" (func $f))
    (export "on-inference" (func $f))
    (export "on-tool-call" (func $f))
    (export "on-shell" (func $f))
    (export "on-compaction" (func $f))
    (export "on-session-end" (func $f))
  )
  (export "murmur:hook/lifecycle@0.2.0" (instance $lc))
)
